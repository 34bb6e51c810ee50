// ND6002 gpu-memory-unused: a busy GPU uses well under its memory: room for a larger batch.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuMemoryUnused final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6002", "gpu-memory-unused", Severity::Info, Needs::Log,
                                  "a busy GPU uses well under its memory: room for a larger batch"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void GpuMemoryUnused::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_gpu_memory_unused() { return std::make_unique<GpuMemoryUnused>(); }

}  // namespace nd
