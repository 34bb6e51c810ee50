// ND5003 nodes-missing: fewer node records than --expect nodes=N.
#include "checks/cross/cross_rules.h"

#include <fmt/format.h>

namespace nd {
namespace {

class NodesMissing final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND5003", "nodes-missing", Severity::Error, Needs::Cluster,
                                  "fewer node records than --expect nodes=N"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void NodesMissing::check(const CheckContext& ctx, FindingSink& out) const {
  const auto& expected = ctx.options.expect.nodes;
  if (!expected || ctx.nodes.size() >= *expected) return;
  out.add(make_finding(kInfo, fmt::format("{} node record(s), expected {}: the missing nodes did not run the probe "
                                          "or their output was lost", ctx.nodes.size(), *expected)));
}

std::unique_ptr<Rule> make_nodes_missing() { return std::make_unique<NodesMissing>(); }

}  // namespace nd
