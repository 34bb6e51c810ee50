#pragma once
// ND4008 memlock-too-low: RLIMIT_MEMLOCK too low for ibv_reg_mr.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class MemlockTooLow final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4008", "memlock-too-low", Severity::Error, Needs::Hardware,
                                  "RLIMIT_MEMLOCK too low for ibv_reg_mr"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
