#pragma once
// ND60xx: the GPU side of the job, from the outputs around the NCCL log
// (nvidia-smi and its CSV and dmon, topo -m, nccl-tests, a Horovod
// timeline), joined with the log where a rule needs both. Each rule is
// declared and defined in its own .cpp; its factory is listed here, in ID
// order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

}  // namespace nd
