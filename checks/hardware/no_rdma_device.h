#pragma once
// ND4001 no-rdma-device: no RDMA device on the node: NCCL falls back to sockets.

#include "checks/hardware/hardware_rule.h"

namespace nd {

class NoRdmaDevice final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4001", "no-rdma-device", Severity::Error, Needs::Hardware,
                                  "no RDMA device on the node: NCCL falls back to sockets"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
