#pragma once
// ND4015 probe-read-failed: sysfs file unreadable or with unexpected contents.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class ProbeReadFailed final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4015", "probe-read-failed", Severity::Warning, Needs::Hardware,
                                  "sysfs file unreadable or with unexpected contents"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
