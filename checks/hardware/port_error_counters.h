#pragma once
// ND4011 port-error-counters: non-zero port error counters.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class PortErrorCounters final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4011", "port-error-counters", Severity::Warning, Needs::Hardware,
                                  "non-zero port error counters"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
