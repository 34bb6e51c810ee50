#pragma once
// The input files of `check`, `summary` and `graph`: none given means
// standard input when something is piped in (`cat job.log | nccl-doctor check`).

#include <string>
#include <vector>

namespace nd {

// Adds "-" when `inputs` is empty and standard input is not a terminal;
// throws CLI::ValidationError with what to do when it is.
void default_inputs_to_stdin(std::vector<std::string>& inputs);

}  // namespace nd
