// ND6001 gpu-busy-low: a GPU is busy less than the --min-gpu-util share of the steady state.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuBusyLow final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6001", "gpu-busy-low", Severity::Warning, Needs::Log,
                                  "a GPU is busy less than the --min-gpu-util share of the steady state"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void GpuBusyLow::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_gpu_busy_low() { return std::make_unique<GpuBusyLow>(); }

}  // namespace nd
