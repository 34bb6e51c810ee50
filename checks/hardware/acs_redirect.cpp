#include "checks/hardware/acs_redirect.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void AcsRedirect::check(const HardwareContext& ctx, FindingSink& out) const {
  std::set<std::string> reported, unknown;
  for (const auto& p : ctx.node.paths) {
    for (const auto& b : p.bridges) {
      if (b.state == "redirect" && reported.insert(b.bdf).second) {
        Finding f = node_finding(kInfo, ctx.node, fmt::format("ACS redirects peer traffic at bridge {} between GPU {} "
                                 "and {}: GPUDirect traffic goes through the root complex (slow or hangs); disable "
                                 "ACS in the BIOS or with setpci -s {} ECAP_ACS+0x6.w=0000", b.bdf, p.gpu, p.hca,
                                 b.bdf));
        add_evidence(f, "bus/pci/devices/" + b.bdf + "/config", b.detail);
        out.add(std::move(f));
      } else if (b.state == "unknown, needs root") {
        unknown.insert(b.bdf);
      }
    }
  }
  if (!unknown.empty()) {
    out.add(node_finding(kInfo, ctx.node, fmt::format("ACS on {} bridge(s) between GPUs and NICs is unknown: reading "
                         "PCI extended config space needs root (run the probe as root to check)", unknown.size()),
                         Severity::Info));
  }
}

}  // namespace nd
