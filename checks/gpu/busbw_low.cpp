// ND6020 busbw-low: nccl-tests bus bandwidth at the largest size is well below what the hardware allows.
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class BusbwLow final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6020", "busbw-low", Severity::Warning, Needs::Log,
                                  "nccl-tests bus bandwidth at the largest size is well below what the hardware allows"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void BusbwLow::check(const CheckContext& ctx, FindingSink& out) const {
  // FILL IN: judge ctx.model;
  // one make_finding(kInfo, message) per problem, with its evidence.
  (void)ctx;
  (void)out;
}

std::unique_ptr<Rule> make_busbw_low() { return std::make_unique<BusbwLow>(); }

}  // namespace nd
