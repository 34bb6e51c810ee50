#pragma once
// ND4014 firmware-mismatch: HCAs of one type run different firmware.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class FirmwareMismatch final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4014", "firmware-mismatch", Severity::Warning, Needs::Hardware,
                                  "HCAs of one type run different firmware"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
