#pragma once
// ND4005 link-layer-mismatch: port link layer differs from the expected one.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class LinkLayerMismatch final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4005", "link-layer-mismatch", Severity::Error, Needs::Hardware,
                                  "port link layer differs from the expected one"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
