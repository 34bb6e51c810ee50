#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

void InterNodeUnknownNet::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    const auto& name = e.transport.net_name;
    bool unknown = e.transport.family == TransportFamily::NET && e.locality != Locality::Intra &&
                   !is_socket_network(name) && !is_rdma_network(name, ctx.options);
    return unknown ? "NET/" + name : std::string();
  });
}

}  // namespace nd
