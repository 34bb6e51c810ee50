#include "checks/hardware/port_error_counters.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void PortErrorCounters::check(const HardwareContext& ctx, FindingSink& out) const {
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      std::vector<std::string> bad;
      for (const auto& [name, value] : p.counters) {
        if (value != 0) bad.push_back(fmt::format("{}={}{}", name, value, counter_saturated(value) ? " (saturated)" : ""));
      }
      if (bad.empty()) continue;
      Finding f = node_finding(kInfo, ctx.node, fmt::format("{} error counters are not zero: {} (flapping link or bad "
                               "cable; compare again after clearing with perfquery -x)", port_name(h, p),
                               fmt::join(bad, ", ")));
      for (const auto& [name, value] : p.counters) {
        if (value != 0) add_evidence(f, port_dir(h, p) + "/counters/" + name, std::to_string(value));
      }
      out.add(std::move(f));
    }
  }
}

}  // namespace nd
