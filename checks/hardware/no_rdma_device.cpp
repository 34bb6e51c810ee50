#include "checks/hardware/no_rdma_device.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void NoRdmaDevice::check(const HardwareContext& ctx, FindingSink& out) const {
  if (!ctx.node.hcas.empty() || ctx.expect.hcas == 0u) return;
  Finding f = node_finding(kInfo, ctx.node,
      "no RDMA device in /sys/class/infiniband: NCCL will use TCP sockets between nodes");
  if (ctx.node.verbs.status == "not-installed") f.message += " (and rdma-core is not installed)";
  add_evidence(f, "class/infiniband", "(empty)");
  out.add(std::move(f));
}

}  // namespace nd
