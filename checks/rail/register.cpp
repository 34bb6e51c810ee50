#include "checks/rail/rail_rules.h"
#include "checks/registry.h"

namespace nd {

void register_rail_rules(Registry& r) {
  r.add(make_rail_shared_nic());  // ND2100
  r.add(make_cross_rail_traffic());  // ND2101
}

}  // namespace nd
