#pragma once
// ND4003 port-not-active: port not ACTIVE / LinkUp.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class PortNotActive final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4003", "port-not-active", Severity::Error, Needs::Hardware,
                                  "port not ACTIVE / LinkUp"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
