#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

// Either side's /GDRDMA counts: NCCL decides GDR per buffer, and a send side
// without GDR read is normal where the receive side has GDR.
void NoGpudirectRdma::check(const CheckContext& ctx, FindingSink& out) const {
  EdgeGroups groups(ctx.model, ctx.options);
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    if (e.transport.family != TransportFamily::NET || e.locality == Locality::Intra || e.gdr) return;
    if (is_rdma_network(e.transport.net_name, ctx.options)) groups.add(e, "NET/" + e.transport.net_name);
  });
  groups.emit(kInfo, out);
}

}  // namespace nd
