#include "src/cli/input_args.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

namespace nd {

void default_inputs_to_stdin(std::vector<std::string>& inputs) {
  if (!inputs.empty()) return;
  // A pipe, a socket or a redirected file; not a terminal, /dev/null (cron,
  // `ssh -n`) or a closed descriptor, where a missing name is the mistake.
  struct stat st {};
  bool piped = ::fstat(STDIN_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode));
  if (!piped) {
    throw CLI::ValidationError("no input: name log files, or pipe one in (job 2>&1 | nccl-doctor check)");
  }
  inputs.push_back("-");
}

}  // namespace nd
