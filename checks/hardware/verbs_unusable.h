#pragma once
// ND4002 verbs-unusable: RDMA device in sysfs that libibverbs cannot use.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class VerbsUnusable final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4002", "verbs-unusable", Severity::Error, Needs::Hardware,
                                  "RDMA device in sysfs that libibverbs cannot use"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
