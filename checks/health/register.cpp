#include "checks/health/health_rules.h"
#include "checks/registry.h"

namespace nd {

void register_health_rules(Registry& r) {
  r.add<InitIncomplete>();
  r.add<NcclWarning>();
}

}  // namespace nd
