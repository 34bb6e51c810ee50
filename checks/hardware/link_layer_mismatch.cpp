// ND4005 link-layer-mismatch: port link layer differs from the expected one.
#include "checks/hardware/hardware_rules.h"

#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/hardware/hardware_util.h"

namespace nd {
namespace {

class LinkLayerMismatch final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4005", "link-layer-mismatch", Severity::Error, Needs::Node,
                                  "port link layer differs from the expected one"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

namespace {

std::string link_name(const std::string& key) {
  if (key == "ib") return "InfiniBand";
  if (key == "roce") return "Ethernet (RoCE)";
  return key;
}

}  // namespace

void LinkLayerMismatch::check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const {
  std::set<std::string> layers;
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) layers.insert(p.link_layer);
  }
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      if (ctx.options.expect.link && p.link_layer != *ctx.options.expect.link) {
        Finding f = make_finding(kInfo, fmt::format("{} link layer is {}, expected {}", port_name(h, p),
                                 link_name(p.link_layer), link_name(*ctx.options.expect.link)));
        add_evidence(f, port_dir(h, p) + "/link_layer", p.link_layer);
        out.add(std::move(f));
      }
    }
  }
  if (!ctx.options.expect.link && layers.size() > 1) {
    std::vector<std::string> names;
    for (const auto& l : layers) names.push_back(link_name(l));
    out.add(make_finding(kInfo, fmt::format("ports mix link layers ({}): NCCL will not merge IB and "
                         "RoCE ports; set --expect link=ib|roce to say which is right", fmt::join(names, ", ")),
                         Severity::Warning));
  }
}

std::unique_ptr<Rule> make_link_layer_mismatch() { return std::make_unique<LinkLayerMismatch>(); }

}  // namespace nd
