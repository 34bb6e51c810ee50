// ND5002 record-invalid: an aggregate input record is truncated, foreign or
// malformed.
#include "checks/cross/cross_rules.h"

#include <fmt/format.h>

namespace nd {
namespace {

class RecordInvalid final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND5002", "record-invalid", Severity::Warning, Needs::Cluster,
                                  "an aggregate input record is truncated, foreign or malformed"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void RecordInvalid::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& p : ctx.problems) {
    Finding f = make_finding(kInfo, fmt::format("record at line {} ignored: {}", p.line, p.error));
    f.evidence.push_back({std::string(ctx.source), p.line, p.excerpt});
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_record_invalid() { return std::make_unique<RecordInvalid>(); }

}  // namespace nd
