#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class IntraNodeShm final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3002", "intra-node-shm", Severity::Warning, Needs::Log,
                                  "an intra-node link goes through host shared memory (SHM) instead of P2P",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void IntraNodeShm::check(const CheckContext& ctx, FindingSink& out) const {
  report_edges(ctx, kInfo, out, [](const EdgeView& e) {
    return e.locality == Locality::Intra && e.transport.family == TransportFamily::SHM ? "SHM" : "";
  });
}

std::unique_ptr<Rule> make_intra_node_shm() { return std::make_unique<IntraNodeShm>(); }

}  // namespace nd
