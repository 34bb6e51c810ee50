// ND6006 gpu-throttled: a GPU under load hit power or thermal limits.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuThrottled final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6006", "gpu-throttled", Severity::Warning, Needs::Log,
                                  "a GPU under load hit power or thermal limits"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void GpuThrottled::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_gpu_throttled() { return std::make_unique<GpuThrottled>(); }

}  // namespace nd
