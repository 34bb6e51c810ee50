#pragma once
// ND4013 ib-lid-invalid: InfiniBand port without a valid LID or subnet manager.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class IbLidInvalid final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4013", "ib-lid-invalid", Severity::Error, Needs::Hardware,
                                  "InfiniBand port without a valid LID or subnet manager"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
