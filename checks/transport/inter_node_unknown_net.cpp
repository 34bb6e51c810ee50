#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class InterNodeUnknownNet final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3005", "inter-node-unknown-net", Severity::Warning, Needs::Log,
                                  "an inter-node link uses a network that is not a known RDMA network",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void InterNodeUnknownNet::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    const auto& name = e.transport.net_name;
    bool unknown = e.transport.family == TransportFamily::NET && e.locality != Locality::Intra &&
                   !is_socket_network(name) && !is_rdma_network(name, ctx.options);
    return unknown ? "NET/" + name : std::string();
  });
}

std::unique_ptr<Rule> make_inter_node_unknown_net() { return std::make_unique<InterNodeUnknownNet>(); }

}  // namespace nd
