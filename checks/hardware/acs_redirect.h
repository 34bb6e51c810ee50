#pragma once
// ND4009 acs-redirect: ACS redirect on a bridge between a GPU and a NIC.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class AcsRedirect final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4009", "acs-redirect", Severity::Error, Needs::Hardware,
                                  "ACS redirect on a bridge between a GPU and a NIC"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
