#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

void IntraNodeNet::check(const CheckContext& ctx, FindingSink& out) const {
  EdgeGroups groups(ctx.model, ctx.options);
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    if (e.locality == Locality::Intra && e.transport.family == TransportFamily::NET) {
      groups.add(e, "NET/" + e.transport.net_name);
    }
  });
  groups.emit(kInfo, out);
}

}  // namespace nd
