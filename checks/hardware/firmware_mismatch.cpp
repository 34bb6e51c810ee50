#include "checks/hardware/firmware_mismatch.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void FirmwareMismatch::check(const HardwareContext& ctx, FindingSink& out) const {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> by_type;  // type → fw → names
  for (const auto& h : ctx.node.hcas) {
    if (!h.fw_ver.empty()) by_type[h.hca_type][h.fw_ver].push_back(h.name);
  }
  for (const auto& [type, fws] : by_type) {
    if (fws.size() < 2) continue;
    std::vector<std::string> parts;
    for (const auto& [fw, names] : fws) parts.push_back(fmt::format("{} on {}", fw, fmt::join(names, ",")));
    out.add(node_finding(kInfo, ctx.node, fmt::format("{} HCAs run different firmware: {}",
                         type.empty() ? "same-type" : type, fmt::join(parts, "; "))));
  }
}

}  // namespace nd
