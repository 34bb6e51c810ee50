#pragma once
// ND4006 roce-no-v2-gid: RoCE port without a RoCE v2 IPv4 GID.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class RoceNoV2Gid final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4006", "roce-no-v2-gid", Severity::Error, Needs::Hardware,
                                  "RoCE port without a RoCE v2 IPv4 GID"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
