#pragma once
// Hangs and errors: communicators whose init never finished (ND1100) and every
// WARN NCCL or the framework printed, explained (ND3120).

#include "checks/rule.h"

namespace nd {

class InitIncomplete final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1100", "init-incomplete", Severity::Error, Needs::Log,
                                  "ranks began communicator init and never completed it, or are missing", Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class NcclWarning final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3120", "nccl-warning", Severity::Warning, Needs::Log,
                                  "NCCL (or PyTorch on its behalf) reported a warning or an error", Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
