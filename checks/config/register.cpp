#include "checks/config/config_rules.h"
#include "checks/registry.h"

namespace nd {

void register_config_rules(Registry& r) {
  r.add(make_nccl_version_mismatch());  // ND3100
  r.add(make_cuda_driver_mismatch());  // ND3101
  r.add(make_nccl_outdated());  // ND3102
  r.add(make_env_forces_slow_path());  // ND3110
}

}  // namespace nd
