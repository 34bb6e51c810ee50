#pragma once
// `nccl-doctor preflight`: judge this node (or aggregated probe records)
// before a job runs; Nagios-style exit status for Slurm health checks.

#include <CLI/CLI.hpp>

namespace nd {

void add_preflight_command(CLI::App& app, int& exit_code);

}  // namespace nd
