#include "checks/hardware/port_not_active.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void PortNotActive::check(const HardwareContext& ctx, FindingSink& out) const {
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      if (p.state == kPortActive && p.phys_state == kPhysLinkUp) continue;
      Finding f = node_finding(kInfo, ctx.node, fmt::format("{} is {} / {}: NCCL skips ports that are not ACTIVE",
                                                            port_name(h, p), port_state_str(p.state),
                                                            phys_state_str(p.phys_state)));
      add_evidence(f, port_dir(h, p) + "/state", port_state_str(p.state));
      add_evidence(f, port_dir(h, p) + "/phys_state", phys_state_str(p.phys_state));
      out.add(std::move(f));
    }
  }
}

}  // namespace nd
