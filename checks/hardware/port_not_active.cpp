// ND4003 port-not-active: port not ACTIVE / LinkUp.
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

#include "checks/hardware/hardware_util.h"
#include "src/probe/ib_attrs.h"

namespace nd {
namespace {

class PortNotActive final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4003", "port-not-active", Severity::Error, Needs::Node,
                                  "port not ACTIVE / LinkUp"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void PortNotActive::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      if (p.state == kPortActive && p.phys_state == kPhysLinkUp) continue;
      Finding f = make_finding(kInfo, fmt::format("{} is {} / {}: NCCL skips ports that are not ACTIVE",
                                                  port_name(h, p), port_state_str(p.state),
                                                  phys_state_str(p.phys_state)));
      add_evidence(f, port_dir(h, p) + "/state", port_state_str(p.state));
      add_evidence(f, port_dir(h, p) + "/phys_state", phys_state_str(p.phys_state));
      out.add(std::move(f));
    }
  }
}

std::unique_ptr<Rule> make_port_not_active() { return std::make_unique<PortNotActive>(); }

}  // namespace nd
