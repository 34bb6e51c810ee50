#include "checks/hardware/link_layer_mismatch.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {
namespace {

std::string link_name(const std::string& key) {
  if (key == "ib") return "InfiniBand";
  if (key == "roce") return "Ethernet (RoCE)";
  return key;
}

}  // namespace

void LinkLayerMismatch::check(const HardwareContext& ctx, FindingSink& out) const {
  std::set<std::string> layers;
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) layers.insert(p.link_layer);
  }
  for (const auto& h : ctx.node.hcas) {
    for (const auto& p : h.ports) {
      if (ctx.expect.link && p.link_layer != *ctx.expect.link) {
        Finding f = node_finding(kInfo, ctx.node, fmt::format("{} link layer is {}, expected {}", port_name(h, p),
                                 link_name(p.link_layer), link_name(*ctx.expect.link)));
        add_evidence(f, port_dir(h, p) + "/link_layer", p.link_layer);
        out.add(std::move(f));
      }
    }
  }
  if (!ctx.expect.link && layers.size() > 1) {
    std::vector<std::string> names;
    for (const auto& l : layers) names.push_back(link_name(l));
    out.add(node_finding(kInfo, ctx.node, fmt::format("ports mix link layers ({}): NCCL will not merge IB and "
                         "RoCE ports; set --expect link=ib|roce to say which is right", fmt::join(names, ", ")),
                         Severity::Warning));
  }
}

}  // namespace nd
