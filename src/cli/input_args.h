#pragma once
// The input files of `check`, `summary` and `graph`: none given means
// standard input when something is piped in (`cat job.log | nccl-doctor check`).

#include <string>
#include <vector>

namespace nd {

// Adds "-" when `inputs` is empty and standard input is a pipe, a socket or
// a redirected file; throws CLI::ValidationError with what to do otherwise.
void default_inputs_to_stdin(std::vector<std::string>& inputs);

}  // namespace nd
