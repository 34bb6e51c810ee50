#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class IntraNodeNet final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3003", "intra-node-net", Severity::Error, Needs::Log,
                                  "an intra-node link goes through the network (NET) instead of P2P or SHM",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void IntraNodeNet::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [](const EdgeView& e) {
    bool net = e.locality == Locality::Intra && e.transport.family == TransportFamily::NET;
    return net ? "NET/" + e.transport.net_name : std::string();
  });
}

std::unique_ptr<Rule> make_intra_node_net() { return std::make_unique<IntraNodeNet>(); }

}  // namespace nd
