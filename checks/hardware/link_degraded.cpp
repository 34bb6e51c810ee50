// ND4004 link-degraded: port rate below the expected rate or below its peers on the node.
#include "checks/hardware/hardware_rules.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "checks/hardware/hardware_util.h"
#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {
namespace {

class LinkDegraded final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4004", "link-degraded", Severity::Error, Needs::Node,
                                  "port rate below the expected rate or below its peers on the node"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void LinkDegraded::check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const {
  // Without an expectation, the fastest ACTIVE port of the same link layer
  // on this node is the yardstick (zero-config: all ports at one rate).
  std::map<std::string, double> best;
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      if (p.state == kPortActive && p.rate_gbps) best[p.link_layer] = std::max(best[p.link_layer], *p.rate_gbps);
    }
  }
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      if (p.state != kPortActive) continue;  // ND4003's business
      if (!p.rate_gbps) {
        Finding f = make_finding(kInfo, fmt::format("{} is ACTIVE but its rate is {}", port_name(h, p),
                                 rate_str(p)), Severity::Warning);
        add_evidence(f, port_dir(h, p) + "/rate", rate_str(p));
        out.add(std::move(f));
        continue;
      }
      double r = *p.rate_gbps;
      if (ctx.options.expect.rate && r < *ctx.options.expect.rate) {
        Finding f = make_finding(kInfo, fmt::format("{} runs at {} Gb/s, expected {} Gb/s",
                                 port_name(h, p), r, *ctx.options.expect.rate));
        add_evidence(f, port_dir(h, p) + "/rate", p.rate_text);
        out.add(std::move(f));
      } else if (!ctx.options.expect.rate && r < best[p.link_layer]) {
        Finding f = make_finding(kInfo, fmt::format("{} runs at {} Gb/s while other ports of this node "
                                 "run at {} Gb/s (degraded link: cable, transceiver or width)", port_name(h, p), r,
                                 best[p.link_layer]));
        add_evidence(f, port_dir(h, p) + "/rate", p.rate_text);
        out.add(std::move(f));
      }
    }
  }
}

std::unique_ptr<Rule> make_link_degraded() { return std::make_unique<LinkDegraded>(); }

}  // namespace nd
