#include "checks/hardware/roce_no_v2_gid.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void RoceNoV2Gid::check(const HardwareContext& ctx, FindingSink& out) const {
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      if (p.link_layer != "roce" || p.state != kPortActive) continue;
      bool v2 = false, v2_ipv4 = false;
      for (const auto& g : p.gids) {
        if (roce_version(g.type) != 2) continue;
        v2 = true;
        v2_ipv4 |= gid_is_ipv4_mapped(g.gid);
      }
      if (v2_ipv4) continue;
      // NCCL's default (NCCL_IB_ROCE_VERSION_NUM=2, AF_INET) needs both.
      Finding f = node_finding(kInfo, ctx.node, v2
          ? fmt::format("{} has RoCE v2 GIDs but none with an IPv4 address: assign an IPv4 address to {} or set "
                        "NCCL_IB_ADDR_FAMILY=AF_INET6", port_name(h, p), h.netdevs.empty() ? "its netdev" : h.netdevs[0])
          : fmt::format("{} has no RoCE v2 GID (only RoCE v1 / IB): NCCL picks RoCE v2 by default", port_name(h, p)));
      add_evidence(f, port_dir(h, p) + "/gid_attrs/types", fmt::format("{} non-zero GIDs", p.gids.size()));
      out.add(std::move(f));
    }
  }
}

}  // namespace nd
