#pragma once
// ND31xx: the job's configuration as the log echoes it — NCCL and driver
// versions, and environment settings that force slow transports.
// Each rule is declared and defined in its own .cpp; its factory is listed
// here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_nccl_version_mismatch();  // ND3100
std::unique_ptr<Rule> make_cuda_driver_mismatch();  // ND3101
std::unique_ptr<Rule> make_nccl_outdated();  // ND3102
std::unique_ptr<Rule> make_env_forces_slow_path();  // ND3110

}  // namespace nd
