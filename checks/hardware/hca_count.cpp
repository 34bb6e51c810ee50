#include "checks/hardware/hca_count.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void HcaCount::check(const HardwareContext& ctx, FindingSink& out) const {
  if (!ctx.expect.hcas || ctx.node.hcas.size() >= *ctx.expect.hcas || ctx.node.hcas.empty()) return;
  std::vector<std::string> names;
  for (const auto& h : ctx.node.hcas) names.push_back(h.name);
  out.add(node_finding(kInfo, ctx.node, fmt::format("{} RDMA device(s) ({}), expected {}", ctx.node.hcas.size(),
                       fmt::join(names, ", "), *ctx.expect.hcas)));
}

}  // namespace nd
