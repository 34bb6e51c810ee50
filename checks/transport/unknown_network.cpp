#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

void UnknownNetwork::check(const CheckContext& ctx, FindingSink& out) const {
  EdgeGroups groups(ctx.model, ctx.options);
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    if (e.transport.family != TransportFamily::NET || e.locality == Locality::Intra) return;
    const auto& name = e.transport.net_name;
    if (!is_socket_network(name) && !is_rdma_network(name, ctx.options)) groups.add(e, "NET/" + name);
  });
  groups.emit(kInfo, out);
}

}  // namespace nd
