#pragma once
// `nccl-doctor summary`: the job's layout as tables or JSON.

#include <CLI/CLI.hpp>

namespace nd {

void add_summary_command(CLI::App& app, int& exit_code);

}  // namespace nd
