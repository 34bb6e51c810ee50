#include "checks/registry.h"
#include "checks/transport/transport_rules.h"

namespace nd {

void register_transport_rules(Registry& r) {
  r.add<InterNodeSocket>();
  r.add<IntraNodeShm>();
  r.add<IntraNodeNet>();
  r.add<NoGpudirectRdma>();
  r.add<InterNodeUnknownNet>();
}

}  // namespace nd
