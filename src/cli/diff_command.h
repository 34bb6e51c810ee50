#pragma once
// `nccl-doctor diff GOOD BAD`: what changed between a run that was fast and
// one that is not.

#include <CLI/CLI.hpp>

namespace nd {

void add_diff_command(CLI::App& app, int& exit_code);

}  // namespace nd
