#pragma once
// ND60xx: the GPU side of the job, from the outputs around the NCCL log
// (nvidia-smi and its CSV and dmon, topo -m, nccl-tests, a Horovod
// timeline), joined with the log where a rule needs both. Each rule is
// declared and defined in its own .cpp; its factory is listed here, in ID
// order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_gpu_busy_low();  // ND6001
std::unique_ptr<Rule> make_gpu_memory_unused();  // ND6002
std::unique_ptr<Rule> make_gpu_shared();  // ND6003
std::unique_ptr<Rule> make_gpu_idle();  // ND6004
std::unique_ptr<Rule> make_process_spans_gpus();  // ND6005
std::unique_ptr<Rule> make_gpu_throttled();  // ND6006
std::unique_ptr<Rule> make_transport_vs_topology();  // ND6010
std::unique_ptr<Rule> make_busbw_low();  // ND6020
std::unique_ptr<Rule> make_nccl_tests_wrong();  // ND6021
std::unique_ptr<Rule> make_comm_bound();  // ND6030

}  // namespace nd
