#pragma once
// ND5002 record-invalid, ND5003 nodes-missing, ND5004 duplicate-host: the
// bookkeeping of an aggregate run.

#include "checks/cross/cluster_rule.h"

namespace nd {

class RecordInvalid final : public ClusterRule {
 public:
  static constexpr RuleInfo kInfo{"ND5002", "record-invalid", Severity::Warning, Needs::Hardware,
                                  "an aggregate input record is truncated, foreign or malformed"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ClusterContext& ctx, FindingSink& out) const override;
};

class NodesMissing final : public ClusterRule {
 public:
  static constexpr RuleInfo kInfo{"ND5003", "nodes-missing", Severity::Error, Needs::Hardware,
                                  "fewer node records than --expect nodes=N"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ClusterContext& ctx, FindingSink& out) const override;
};

class DuplicateHost final : public ClusterRule {
 public:
  static constexpr RuleInfo kInfo{"ND5004", "duplicate-host", Severity::Warning, Needs::Hardware,
                                  "one host sent several records"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ClusterContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
