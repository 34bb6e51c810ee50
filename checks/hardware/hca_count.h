#pragma once
// ND4012 hca-count: fewer RDMA devices than expected.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class HcaCount final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4012", "hca-count", Severity::Error, Needs::Hardware,
                                  "fewer RDMA devices than expected"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
