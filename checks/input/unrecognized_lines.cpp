#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "checks/input/line_samples.h"
#include "src/model/job_model.h"

namespace nd {
namespace {

class UnrecognizedLines final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1001", "unrecognized-lines", Severity::Info, Needs::Log,
                                  "NCCL lines of a shape this version of the tool does not know"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void UnrecognizedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.unknown_lines;
  if (n == 0) return;
  Finding f = make_finding(kInfo, fmt::format("{} NCCL line{} of unrecognized shape (not used for the verdict)", n,
                                              n == 1 ? "" : "s"));
  f.evidence = line_samples(ctx.model, ctx.model.unknown_samples, ctx.options.max_evidence);
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_unrecognized_lines() { return std::make_unique<UnrecognizedLines>(); }

}  // namespace nd
