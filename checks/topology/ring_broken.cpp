#include <algorithm>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"
#include "src/model/ring_graph.h"

namespace nd {
namespace {

// GRAPH `Ring NN : prev -> me -> next`: every rank prints its own position.
void check_graph_lines(const Communicator& comm, uint16_t channel, const std::vector<const GraphRingRecord*>& recs,
                       ChannelProblems& problems) {
  uint32_t n = comm.size();
  RingGraph ring(n);
  std::vector<const GraphRingRecord*> own(n, nullptr);
  size_t found = 0;
  auto problem = [&](const std::string& text, std::vector<uint32_t> ranks, std::vector<LineRef> lines) {
    problems.add(text, channel, std::move(ranks), std::move(lines));
    ++found;
  };
  for (const auto* g : recs) {
    auto me = static_cast<uint32_t>(g->me);
    if (me >= n) continue;
    if (g->next < 0) {
      problem(fmt::format("no link out of rank {} (next is -1)", me), {me}, {g->line});
    } else if (g->next >= n) {
      problem(fmt::format("rank {} passes to rank {}, past nranks {}", me, g->next, n), {me}, {g->line});
    } else {
      ring.add_link(me, static_cast<uint32_t>(g->next), {locality(comm, me, static_cast<uint32_t>(g->next)), g->line});
    }
    if (g->prev < 0) problem(fmt::format("no link into rank {} (prev is -1)", me), {me}, {g->line});
    if (!own[me]) own[me] = g;
  }
  for (uint32_t r = 0; r < n; ++r) {
    auto succ = ring.successors(r);
    if (succ.size() > 1) {
      problem(fmt::format("rank {} has {} successors ({})", r, succ.size(), ranks_text(succ).substr(6)), {r},
              {own[r] ? own[r]->line : LineRef{}});
    }
    auto pred = ring.predecessors(r);
    if (pred.size() > 1) {
      std::vector<LineRef> lines;
      for (uint32_t p : pred) {
        if (own[p]) lines.push_back(own[p]->line);
      }
      std::vector<uint32_t> who = pred;
      who.push_back(r);
      problem(fmt::format("{} all pass to rank {}", ranks_text(pred), r), who, lines);
    }
    // Each rank also names its predecessor: it must agree with that rank's next.
    if (own[r] && own[r]->prev >= 0 && own[r]->prev < n) {
      auto p = static_cast<uint32_t>(own[r]->prev);
      if (own[p] && own[p]->next >= 0 && own[p]->next != r) {
        problem(fmt::format("rank {} says its predecessor is rank {}, but rank {} passes to rank {}", r, p, p,
                            own[p]->next),
                {r, p}, {own[r]->line, own[p]->line});
      }
    }
  }
  bool all_present = std::all_of(own.begin(), own.end(), [](const GraphRingRecord* g) { return g != nullptr; });
  if (found == 0 && all_present && !ring.is_single_cycle()) {
    // Follow the cycle through rank 0 and name the ranks it leaves out.
    std::vector<bool> seen(n, false);
    uint32_t r = 0;
    size_t steps = 0;
    while (!seen[r] && steps++ < n) {
      seen[r] = true;
      auto next = ring.next(r);
      if (!next) break;
      r = *next;
    }
    std::vector<uint32_t> left_out;
    for (uint32_t i = 0; i < n; ++i) {
      if (!seen[i]) left_out.push_back(i);
    }
    std::vector<LineRef> lines;
    for (uint32_t i = 0; i < n && lines.size() < 4; ++i) {
      if (seen[i]) lines.push_back(own[i]->line);
    }
    problem(fmt::format("the cycle through rank 0 closes after {} of {} ranks and skips {}", n - left_out.size(), n,
                        ranks_text(left_out)),
            left_out, lines);
  }
}

// The rank-0 listing `Channel NN/MM : 0 1 2 3` (cut at 20 ranks up to 2.22,
// at `...` from 2.23).
void check_listing(const Communicator& comm, const ListingRecord& l, ChannelProblems& problems) {
  uint32_t n = comm.size();
  std::vector<bool> seen(n, false);
  for (uint32_t r : l.ranks) {
    if (r >= n) {
      problems.add(fmt::format("the ring listing names rank {}, past nranks {}", r, n), l.channel, {r}, {l.line});
      return;
    }
    if (seen[r]) {
      problems.add(fmt::format("the ring listing names rank {} twice", r), l.channel, {r}, {l.line});
      return;
    }
    seen[r] = true;
  }
  bool capped = l.truncated || (l.ranks.size() == 20 && n > 20);
  if (!capped && l.ranks.size() < n) {
    std::vector<uint32_t> missing;
    for (uint32_t r = 0; r < n; ++r) {
      if (!seen[r]) missing.push_back(r);
    }
    problems.add(fmt::format("the ring listing holds {} of {} ranks and skips {}", l.ranks.size(), n,
                             ranks_text(missing)),
                 l.channel, missing, {l.line});
  }
}

}  // namespace

void RingBroken::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& comm : ctx.model.comms) {
    uint32_t n = comm.size();
    if (comm.synthetic || comm.nranks == 0 || n < 2) continue;
    ChannelProblems problems;
    std::map<uint16_t, std::vector<const GraphRingRecord*>> by_channel;
    for (const auto& g : comm.graph_rings) by_channel[g.channel].push_back(&g);
    for (const auto& [channel, recs] : by_channel) {
      check_graph_lines(comm, channel, recs, problems);
    }
    for (const auto& l : comm.listings) check_listing(comm, l, problems);
    problems.emit(kInfo, ctx, comm, "ring", out);
  }
}

}  // namespace nd
