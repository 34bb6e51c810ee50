#include "src/cli/input_args.h"

#include <unistd.h>

#include <CLI/CLI.hpp>

namespace nd {

void default_inputs_to_stdin(std::vector<std::string>& inputs) {
  if (!inputs.empty()) return;
  if (::isatty(STDIN_FILENO) == 1) {
    throw CLI::ValidationError("no input: name log files, or pipe one in (job 2>&1 | nccl-doctor check)");
  }
  inputs.push_back("-");
}

}  // namespace nd
