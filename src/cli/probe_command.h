#pragma once
// `nccl-doctor probe`: what this node's RDMA fabric looks like, read-only.

#include <CLI/CLI.hpp>

namespace nd {

void add_probe_command(CLI::App& app, int& exit_code);

}  // namespace nd
