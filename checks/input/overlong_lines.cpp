#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "src/model/job_model.h"

namespace nd {
namespace {

class OverlongLines final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1003", "overlong-lines", Severity::Info, Needs::Log,
                                  "lines longer than the 64 KiB the tool keeps were cut"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void OverlongLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.truncated_lines;
  if (n == 0) return;
  out.add(make_finding(kInfo, fmt::format("{} line{} longer than 64 KiB; only the first 64 KiB of each was read", n,
                                          n == 1 ? " was" : "s were")));
}

std::unique_ptr<Rule> make_overlong_lines() { return std::make_unique<OverlongLines>(); }

}  // namespace nd
