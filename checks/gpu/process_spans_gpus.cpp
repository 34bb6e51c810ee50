// ND6005 process-spans-gpus: one process holds memory on several GPUs.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class ProcessSpansGpus final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6005", "process-spans-gpus", Severity::Warning, Needs::Log,
                                  "one process holds memory on several GPUs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void ProcessSpansGpus::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_process_spans_gpus() { return std::make_unique<ProcessSpansGpus>(); }

}  // namespace nd
