#include "checks/hardware/memlock_too_low.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void MemlockTooLow::check(const HardwareContext& ctx, FindingSink& out) const {
  const HostInfo& h = ctx.node.host;
  uint64_t need = ctx.expect.memlock.value_or(kMemlockUnlimited);
  if (!h.memlock_soft || *h.memlock_soft >= need) return;
  if (h.cap_ipc_lock == true) return;  // CAP_IPC_LOCK lifts the limit for pinning
  std::string msg = fmt::format("memlock limit is {} (need {}): ibv_reg_mr will fail with ENOMEM",
                                memlock_str(h.memlock_soft), memlock_str(need));
  msg += " (ulimit -l unlimited; Slurm: PropagateResourceLimitsExcept=MEMLOCK; Docker: --ulimit memlock=-1)";
  Finding f = node_finding(kInfo, ctx.node, msg);
  add_evidence(f, "RLIMIT_MEMLOCK", memlock_str(h.memlock_soft));
  out.add(std::move(f));
}

}  // namespace nd
