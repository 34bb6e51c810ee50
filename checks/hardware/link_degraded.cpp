#include "checks/hardware/link_degraded.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void LinkDegraded::check(const HardwareContext& ctx, FindingSink& out) const {
  // Without an expectation, the fastest ACTIVE port of the same link layer
  // on this node is the yardstick (zero-config: all ports at one rate).
  std::map<std::string, double> best;
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      if (p.state == kPortActive && p.rate_gbps) best[p.link_layer] = std::max(best[p.link_layer], *p.rate_gbps);
    }
  }
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      if (p.state != kPortActive) continue;  // ND4003's business
      if (!p.rate_gbps) {
        Finding f = node_finding(kInfo, ctx.node, fmt::format("{} is ACTIVE but its rate is {}", port_name(h, p),
                                 rate_str(p)), Severity::Warning);
        add_evidence(f, port_dir(h, p) + "/rate", rate_str(p));
        out.add(std::move(f));
        continue;
      }
      double r = *p.rate_gbps;
      if (ctx.expect.rate && r < *ctx.expect.rate) {
        Finding f = node_finding(kInfo, ctx.node, fmt::format("{} runs at {} Gb/s, expected {} Gb/s",
                                 port_name(h, p), r, *ctx.expect.rate));
        add_evidence(f, port_dir(h, p) + "/rate", p.rate_text);
        out.add(std::move(f));
      } else if (!ctx.expect.rate && r < best[p.link_layer]) {
        Finding f = node_finding(kInfo, ctx.node, fmt::format("{} runs at {} Gb/s while other ports of this node "
                                 "run at {} Gb/s (degraded link: cable, transceiver or width)", port_name(h, p), r,
                                 best[p.link_layer]));
        add_evidence(f, port_dir(h, p) + "/rate", p.rate_text);
        out.add(std::move(f));
      }
    }
  }
}

}  // namespace nd
