// ND6003 gpu-shared: two or more compute processes share one GPU.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuShared final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6003", "gpu-shared", Severity::Warning, Needs::Log,
                                  "two or more compute processes share one GPU"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void GpuShared::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_gpu_shared() { return std::make_unique<GpuShared>(); }

}  // namespace nd
