#pragma once
// ND4010 gpu-nic-cross-socket: a GPU whose nearest NIC is across the CPU socket (SYS).

#include "checks/hardware/hardware_rule.h"

namespace nd {

class GpuNicCrossSocket final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4010", "gpu-nic-cross-socket", Severity::Warning, Needs::Hardware,
                                  "a GPU whose nearest NIC is across the CPU socket (SYS)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
