#pragma once
// ND1xxx: problems of the input itself. Bad input is a finding, never an
// exception.

#include "checks/rule.h"

namespace nd {

class UnrecognizedLines final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1001", "unrecognized-lines", Severity::Info, Needs::Log,
                                  "NCCL lines of a shape this version of the tool does not know"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class MalformedLines final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1002", "malformed-lines", Severity::Warning, Needs::Log,
                                  "NCCL lines of a known shape with impossible values (corrupt log)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class OverlongLines final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1003", "overlong-lines", Severity::Info, Needs::Log,
                                  "lines longer than the 64 KiB the tool keeps were cut"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class AmbiguousCommunicator final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1004", "ambiguous-communicator", Severity::Info, Needs::Log,
                                  "connection lines that could belong to several communicators of one process"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
