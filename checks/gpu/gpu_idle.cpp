// ND6004 gpu-idle: a GPU runs no process while its peers on the host work.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuIdle final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6004", "gpu-idle", Severity::Warning, Needs::Log,
                                  "a GPU runs no process while its peers on the host work"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void GpuIdle::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_gpu_idle() { return std::make_unique<GpuIdle>(); }

}  // namespace nd
