#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

void IntraNodeNet::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [](const EdgeView& e) {
    bool net = e.locality == Locality::Intra && e.transport.family == TransportFamily::NET;
    return net ? "NET/" + e.transport.net_name : std::string();
  });
}

}  // namespace nd
