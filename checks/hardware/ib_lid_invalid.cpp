// ND4013 ib-lid-invalid: InfiniBand port without a valid LID or subnet manager.
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

#include "checks/hardware/hardware_util.h"
#include "src/probe/ib_attrs.h"

namespace nd {
namespace {

class IbLidInvalid final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4013", "ib-lid-invalid", Severity::Error, Needs::Node,
                                  "InfiniBand port without a valid LID or subnet manager"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void IbLidInvalid::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      if (p.link_layer != "ib" || p.phys_state != kPhysLinkUp) continue;
      bool bad_lid = p.lid && (*p.lid == 0 || *p.lid == 0xffff);
      bool no_sm = p.sm_lid && *p.sm_lid == 0;
      if (!bad_lid && !no_sm) continue;
      Finding f = make_finding(kInfo, fmt::format("{} has LID {:#x} and SM LID {:#x}: no subnet manager "
                               "has configured it (check opensm / UFM)", port_name(h, p), p.lid.value_or(0),
                               p.sm_lid.value_or(0)));
      add_evidence(f, port_dir(h, p) + "/lid", fmt::format("{:#x}", p.lid.value_or(0)));
      add_evidence(f, port_dir(h, p) + "/sm_lid", fmt::format("{:#x}", p.sm_lid.value_or(0)));
      out.add(std::move(f));
    }
  }
}

std::unique_ptr<Rule> make_ib_lid_invalid() { return std::make_unique<IbLidInvalid>(); }

}  // namespace nd
