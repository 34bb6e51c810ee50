#include <algorithm>
#include "checks/registry.h"
#include "checks/topology/topology_rules.h"

namespace nd {

void register_topology_rules(Registry& r) {
  r.add<RingBroken>();
  r.add<RingIncomplete>();
  r.add<RingSourcesDisagree>();
  r.add<TreeInconsistent>();
  r.add<EdgeSidesDisagree>();
  r.add<DuplicateGpu>();
  r.add<OversubscribedHost>();
  r.add<UnevenRanksPerHost>();
  r.add<CrossSocketTraffic>();
  r.add<FewChannels>();
  r.add<RankUnbound>();
  r.add<SharedCores>();
  r.add<BoundAwayFromGpu>();
}

}  // namespace nd
