// ND4008 memlock-too-low: RLIMIT_MEMLOCK too low for ibv_reg_mr.
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

#include "src/probe/probe_text.h"

namespace nd {
namespace {

class MemlockTooLow final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4008", "memlock-too-low", Severity::Error, Needs::Node,
                                  "RLIMIT_MEMLOCK too low for ibv_reg_mr"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void MemlockTooLow::check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const {
  const HostInfo& h = node.host;
  uint64_t need = ctx.options.expect.memlock.value_or(kMemlockUnlimited);
  if (!h.memlock_soft || *h.memlock_soft >= need) return;
  if (h.cap_ipc_lock == true) return;  // CAP_IPC_LOCK lifts the limit for pinning
  std::string msg = fmt::format("memlock limit is {} (need {}): ibv_reg_mr will fail with ENOMEM",
                                memlock_str(h.memlock_soft), memlock_str(need));
  msg += " (ulimit -l unlimited; Slurm: PropagateResourceLimitsExcept=MEMLOCK; Docker: --ulimit memlock=-1)";
  Finding f = make_finding(kInfo, msg);
  add_evidence(f, "RLIMIT_MEMLOCK", memlock_str(h.memlock_soft));
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_memlock_too_low() { return std::make_unique<MemlockTooLow>(); }

}  // namespace nd
