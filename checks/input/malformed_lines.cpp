#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "checks/input/line_samples.h"
#include "src/model/job_model.h"

namespace nd {
namespace {

class MalformedLines final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1002", "malformed-lines", Severity::Warning, Needs::Log,
                                  "NCCL lines of a known shape with impossible values (corrupt log)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void MalformedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.malformed_lines;
  if (n == 0) return;
  Finding f = make_finding(kInfo, fmt::format("{} NCCL line{} with out-of-range ranks, channels or counts {} skipped",
                                              n, n == 1 ? "" : "s", n == 1 ? "was" : "were"));
  f.evidence = line_samples(ctx.model, ctx.model.malformed_samples, ctx.options.max_evidence);
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_malformed_lines() { return std::make_unique<MalformedLines>(); }

}  // namespace nd
