#pragma once
// ND4004 link-degraded: port rate below the expected rate or below its peers on the node.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class LinkDegraded final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4004", "link-degraded", Severity::Error, Needs::Hardware,
                                  "port rate below the expected rate or below its peers on the node"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
