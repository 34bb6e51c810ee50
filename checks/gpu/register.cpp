#include "checks/gpu/gpu_rules.h"
#include "checks/registry.h"

namespace nd {

void register_gpu_rules(Registry& r) {
  r.add(make_gpu_busy_low());  // ND6001
  r.add(make_gpu_memory_unused());  // ND6002
  r.add(make_gpu_shared());  // ND6003
  r.add(make_gpu_idle());  // ND6004
  r.add(make_process_spans_gpus());  // ND6005
  r.add(make_gpu_throttled());  // ND6006
  r.add(make_transport_vs_topology());  // ND6010
  r.add(make_busbw_low());  // ND6020
  r.add(make_nccl_tests_wrong());  // ND6021
  r.add(make_comm_bound());  // ND6030
}

}  // namespace nd
