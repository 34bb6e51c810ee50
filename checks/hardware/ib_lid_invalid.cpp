#include "checks/hardware/ib_lid_invalid.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void IbLidInvalid::check(const HardwareContext& ctx, FindingSink& out) const {
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      if (p.link_layer != "ib" || p.phys_state != kPhysLinkUp) continue;
      bool bad_lid = p.lid && (*p.lid == 0 || *p.lid == 0xffff);
      bool no_sm = p.sm_lid && *p.sm_lid == 0;
      if (!bad_lid && !no_sm) continue;
      Finding f = node_finding(kInfo, ctx.node, fmt::format("{} has LID {:#x} and SM LID {:#x}: no subnet manager "
                               "has configured it (check opensm / UFM)", port_name(h, p), p.lid.value_or(0),
                               p.sm_lid.value_or(0)));
      add_evidence(f, port_dir(h, p) + "/lid", fmt::format("{:#x}", p.lid.value_or(0)));
      add_evidence(f, port_dir(h, p) + "/sm_lid", fmt::format("{:#x}", p.sm_lid.value_or(0)));
      out.add(std::move(f));
    }
  }
}

}  // namespace nd
