// ND4016 pcie-link-degraded: NIC or GPU PCIe link trained below its maximum.
#include "checks/hardware/hardware_rules.h"

#include <cstdlib>

#include <fmt/format.h>

namespace nd {
namespace {

class PcieLinkDegraded final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4016", "pcie-link-degraded", Severity::Warning, Needs::Node,
                                  "NIC or GPU PCIe link trained below its maximum"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void PcieLinkDegraded::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  auto check_link = [&](const std::string& what, const std::string& bdf, const PciLink& l) {
    bool narrow = l.current_width && l.max_width && *l.current_width < *l.max_width;
    bool slow = !l.current_speed.empty() && !l.max_speed.empty() && l.current_speed != l.max_speed &&
                std::strtod(l.current_speed.c_str(), nullptr) < std::strtod(l.max_speed.c_str(), nullptr);
    if (!narrow && !slow) return;
    Finding f = make_finding(kInfo, fmt::format("{} PCIe link runs at {} x{}, capable of {} x{} "
                             "(down-trained: reseat or check the riser)", what, l.current_speed,
                             l.current_width.value_or(0), l.max_speed, l.max_width.value_or(0)));
    add_evidence(f, "bus/pci/devices/" + bdf + "/current_link_width", std::to_string(l.current_width.value_or(0)));
    out.add(std::move(f));
  };
  for (const auto& h : node.hcas) check_link(fmt::format("{} ({})", h.name, h.pci_bdf), h.pci_bdf, h.link);
  for (const auto& g : node.gpus) check_link("GPU " + g.pci_bdf, g.pci_bdf, g.link);
}

std::unique_ptr<Rule> make_pcie_link_degraded() { return std::make_unique<PcieLinkDegraded>(); }

}  // namespace nd
