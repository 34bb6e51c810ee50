#include "checks/hardware/verbs_unusable.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void VerbsUnusable::check(const HardwareContext& ctx, FindingSink& out) const {
  const NodeSnapshot& n = ctx.node;
  if (n.hcas.empty() || n.verbs.status == "skipped") return;
  const std::string& st = n.verbs.status;
  if (st == "not-installed" || st == "backend-missing" || st == "backend-broken" || st == "error") {
    Finding f = node_finding(kInfo, n, fmt::format("{} RDMA device(s) in sysfs but libibverbs is not usable: {}",
                                                   n.hcas.size(), n.verbs.message));
    out.add(std::move(f));
    return;
  }
  if (!n.uverbs_abi) {
    Finding f = node_finding(kInfo, n, "no ib_uverbs: /sys/class/infiniband_verbs is missing (modprobe ib_uverbs)");
    add_evidence(f, "class/infiniband_verbs/abi_version", "(missing)");
    out.add(std::move(f));
  }
  for (const auto& h : n.hcas) {
    if (h.verbs_state == "ok" || h.verbs_state.empty()) continue;
    std::string why = h.verbs_state == "not listed"
        ? (h.has_uverbs ? "libibverbs does not list it (no user-space provider such as libmlx5 for this device, "
                          "or /dev/infiniband/uverbsN is not accessible in this container)"
                        : "it has no uverbs character device")
        : h.verbs_state;
    out.add(node_finding(kInfo, n, fmt::format("{} is in sysfs but not usable through verbs: {}", h.name, why)));
  }
}

}  // namespace nd
