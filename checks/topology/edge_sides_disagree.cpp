#include <algorithm>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/transport/edge_groups.h"

namespace nd {
namespace {

class EdgeSidesDisagree final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2005", "edge-sides-disagree", Severity::Error, Needs::Log,
                                  "the [send] and [receive] lines of one network edge name different transports"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// A NET edge is printed twice: `[send]` by the sender, `[receive]` by the
// receiver. Both name the same connection, so a different network is a real
// contradiction (the two hosts picked different NET plugins or NCCL_NET).
// GPUDirect is decided per side: the receive side uses GDR write, the send
// side needs GDR read (NCCL_NET_GDR_READ), which NCCL leaves off on many
// platforms. So `/GDRDMA` on the receive side only is normal; `/GDRDMA` on the
// send side only means the receiving host cannot do GDR where the sending
// host can (no nvidia-peermem there, or another NCCL_NET_GDR_LEVEL).
void EdgeSidesDisagree::check(const CheckContext& ctx, FindingSink& out) const {
  EdgeGroups groups(ctx.model, ctx.options);
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    if (e.edge.send_transport == kNoTransport || e.edge.recv_transport == kNoTransport) return;
    const Transport& s = ctx.model.transports[e.edge.send_transport];
    const Transport& r = ctx.model.transports[e.edge.recv_transport];
    if (s.family != r.family || s.net_name != r.net_name) {
      groups.add(e, fmt::format("{} on the [send] side but {} on the [receive] side", transport_label(s),
                                transport_label(r)));
    } else if (s.family == TransportFamily::NET && s.gdr && !r.gdr) {
      groups.add(e, fmt::format("{}/GDRDMA on the [send] side but no /GDRDMA on the [receive] side",
                                transport_label(s)));
    }
  });
  groups.emit(kInfo, out);
}

std::unique_ptr<Rule> make_edge_sides_disagree() { return std::make_unique<EdgeSidesDisagree>(); }

}  // namespace nd
