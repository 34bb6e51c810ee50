#include "checks/rail/rail_rules.h"
#include "checks/registry.h"

namespace nd {

void register_rail_rules(Registry& r) {
  r.add<RailSharedNic>();
  r.add<CrossRailTraffic>();
}

}  // namespace nd
