#pragma once
// `nccl-doctor graph`: rings and trees as DOT, JSON or text; --render runs dot.

#include <CLI/CLI.hpp>

namespace nd {

void add_graph_command(CLI::App& app, int& exit_code);

}  // namespace nd
