#include <algorithm>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {

// GRAPH ring lines come from every rank; when some ranks printed none the
// log is incomplete (per-rank files missing, a host's output lost), which is
// not the same as a broken ring and is reported apart from ND2001.
void RingIncomplete::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& comm : ctx.model.comms) {
    uint32_t n = comm.size();
    if (comm.synthetic || comm.nranks == 0 || n < 2 || comm.graph_rings.empty()) continue;
    std::map<uint16_t, std::vector<bool>> present;
    std::map<uint16_t, std::vector<LineRef>> lines;
    for (const auto& g : comm.graph_rings) {
      auto& p = present[g.channel];
      if (p.empty()) p.assign(n, false);
      if (g.me >= 0 && g.me < n) p[static_cast<size_t>(g.me)] = true;
      if (lines[g.channel].size() < 2) lines[g.channel].push_back(g.line);
    }
    ChannelProblems problems;
    for (const auto& [channel, p] : present) {
      std::vector<uint32_t> missing;
      for (uint32_t r = 0; r < n; ++r) {
        if (!p[r]) missing.push_back(r);
      }
      if (missing.empty()) continue;
      problems.add(fmt::format("the log has GRAPH ring lines from {} of {} ranks; {} printed none, so the ring "
                               "cannot be closed (checked only between the ranks present)",
                               n - missing.size(), n, ranks_text(missing)),
                   channel, missing, lines[channel]);
    }
    problems.emit(kInfo, ctx, comm, "ring", out);
  }
}

}  // namespace nd
