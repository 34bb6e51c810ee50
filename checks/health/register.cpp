#include "checks/health/health_rules.h"
#include "checks/registry.h"

namespace nd {

void register_health_rules(Registry& r) {
  r.add(make_init_incomplete());  // ND1100
  r.add(make_process_crashed());  // ND1101
  r.add(make_nccl_warning());  // ND3120
}

}  // namespace nd
