#pragma once
// `nccl-doctor check`: options and their mapping to CheckConfig.

#include <CLI/CLI.hpp>

namespace nd {

void add_check_command(CLI::App& app, int& exit_code);

}  // namespace nd
