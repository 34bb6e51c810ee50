#pragma once
// ND31xx: the job's configuration as the log echoes it — NCCL and driver
// versions, and environment settings that force slow transports.

#include "checks/rule.h"

namespace nd {

class NcclVersionMismatch final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3100", "nccl-version-mismatch", Severity::Error, Needs::Log,
                                  "processes of one job load different NCCL versions"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class CudaDriverMismatch final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3101", "cuda-driver-mismatch", Severity::Warning, Needs::Log,
                                  "hosts of one job run different CUDA driver versions"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class NcclOutdated final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3102", "nccl-outdated", Severity::Info, Needs::Log,
                                  "the job's NCCL is more than a year older than the newest known release"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class EnvForcesSlowPath final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3110", "env-forces-slow-path", Severity::Warning, Needs::Log,
                                  "an NCCL_* setting echoed in the log forces a slower transport"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
