// ND4012 hca-count: fewer RDMA devices than expected.
#include "checks/hardware/hardware_rules.h"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nd {
namespace {

class HcaCount final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4012", "hca-count", Severity::Error, Needs::Node,
                                  "fewer RDMA devices than expected"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void HcaCount::check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const {
  if (!ctx.options.expect.hcas || node.hcas.size() >= *ctx.options.expect.hcas || node.hcas.empty()) return;
  std::vector<std::string> names;
  for (const auto& h : node.hcas) names.push_back(h.name);
  out.add(make_finding(kInfo, fmt::format("{} RDMA device(s) ({}), expected {}", node.hcas.size(),
                       fmt::join(names, ", "), *ctx.options.expect.hcas)));
}

std::unique_ptr<Rule> make_hca_count() { return std::make_unique<HcaCount>(); }

}  // namespace nd
