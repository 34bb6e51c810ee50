#include "checks/hardware/gpu_nic_cross_socket.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void GpuNicCrossSocket::check(const HardwareContext& ctx, FindingSink& out) const {
  for (const auto& g : ctx.node.gpus) {
    if (g.nearest_path != "SYS") continue;
    Finding f = node_finding(kInfo, ctx.node, fmt::format("GPU {} (NUMA {}) has no NIC on its socket: nearest is {} "
                             "(SYS), so its inter-node traffic crosses the CPU interconnect without GPUDirect",
                             g.pci_bdf, g.numa_node, g.nearest_hca));
    add_evidence(f, "bus/pci/devices/" + g.pci_bdf + "/numa_node", std::to_string(g.numa_node));
    out.add(std::move(f));
  }
}

}  // namespace nd
