#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "src/model/job_model.h"

namespace nd {
namespace {

class AmbiguousCommunicator final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1004", "ambiguous-communicator", Severity::Info, Needs::Log,
                                  "connection lines that could belong to several communicators of one process"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void AmbiguousCommunicator::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.ambiguous_assignments;
  if (n == 0) return;
  out.add(make_finding(kInfo, fmt::format("{} connection line{} matched several communicators of the same process "
                                          "(runtime connections without a communicator id); each was assigned to "
                                          "the most recently created one",
                                          n, n == 1 ? "" : "s")));
}

std::unique_ptr<Rule> make_ambiguous_communicator() { return std::make_unique<AmbiguousCommunicator>(); }

}  // namespace nd
