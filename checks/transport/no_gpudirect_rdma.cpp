#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class NoGpudirectRdma final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3004", "no-gpudirect-rdma", Severity::Warning, Needs::Log,
                                  "an inter-node RDMA link runs without GPUDirect RDMA (no /GDRDMA)",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// Either side's /GDRDMA counts: NCCL decides GDR per buffer, and a send side
// without GDR read is normal where the receive side has GDR.
void NoGpudirectRdma::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    // The other half may still bring /GDRDMA.
    if (ctx.input_open && !e.edge.both_halves()) return std::string();
    bool rdma = e.transport.family == TransportFamily::NET && e.locality != Locality::Intra && !e.gdr &&
                is_rdma_network(e.transport.net_name, ctx.options);
    return rdma ? "NET/" + e.transport.net_name : std::string();
  });
}

std::unique_ptr<Rule> make_no_gpudirect_rdma() { return std::make_unique<NoGpudirectRdma>(); }

}  // namespace nd
