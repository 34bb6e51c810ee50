#pragma once
// ND21xx: rail alignment, which NIC each GPU's inter-node traffic uses.

#include "checks/rule.h"

namespace nd {

class RailSharedNic final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2100", "rail-shared-nic", Severity::Warning, Needs::Log,
                                  "two or more GPUs of a host send inter-node traffic through one NIC while "
                                  "another NIC of that host carries none"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class CrossRailTraffic final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2101", "cross-rail-traffic", Severity::Warning, Needs::Log,
                                  "an inter-node link goes from one NIC to a NIC of another rail, and IB connections "
                                  "of its hosts timed out"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
