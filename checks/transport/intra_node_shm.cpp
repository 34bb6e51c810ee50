#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

void IntraNodeShm::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [](const EdgeView& e) {
    return e.locality == Locality::Intra && e.transport.family == TransportFamily::SHM ? "SHM" : "";
  });
}

}  // namespace nd
