#pragma once
// ND4007 gdr-not-ready: GPUDirect RDMA not ready (no peermem, no dma-buf).

#include "checks/hardware/hardware_rule.h"

namespace nd {

class GdrNotReady final : public HardwareRule {
 public:
  static constexpr RuleInfo kInfo{"ND4007", "gdr-not-ready", Severity::Error, Needs::Hardware,
                                  "GPUDirect RDMA not ready (no peermem, no dma-buf)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const HardwareContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
