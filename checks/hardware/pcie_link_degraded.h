#pragma once
// ND4016 pcie-link-degraded: NIC or GPU PCIe link trained below its maximum.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class PcieLinkDegraded final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4016", "pcie-link-degraded", Severity::Warning, Needs::Hardware,
                                  "NIC or GPU PCIe link trained below its maximum"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
