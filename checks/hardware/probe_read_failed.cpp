#include "checks/hardware/probe_read_failed.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void ProbeReadFailed::check(const HardwareContext& ctx, FindingSink& out) const {
  for (const auto& i : ctx.node.issues) {
    Finding f = node_finding(kInfo, ctx.node, fmt::format("cannot use {}: {}", i.path, i.error));
    add_evidence(f, i.path, i.error);
    out.add(std::move(f));
  }
}

}  // namespace nd
