#include <algorithm>
#include <map>
#include <set>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"
#include "src/model/ring_graph.h"

namespace nd {
namespace {

class RingBroken final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2001", "ring-broken", Severity::Error, Needs::Log,
                                  "a ring's successor links do not form one cycle through all ranks"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// GRAPH `Ring NN : prev -> me -> next`: every rank prints its own position.
// Work and memory follow the lines present, not nranks (a corrupt Init line
// can claim millions of ranks).
void check_graph_lines(const Communicator& comm, uint16_t channel, const std::vector<const GraphRingRecord*>& recs,
                       ChannelProblems& problems) {
  uint32_t n = comm.size();
  RingGraph ring;  // grows to the largest rank linked
  std::map<uint32_t, const GraphRingRecord*> own;
  size_t found = 0;
  auto problem = [&](const std::string& text, std::vector<uint32_t> ranks, std::vector<LineRef> lines) {
    problems.add(text, channel, std::move(ranks), std::move(lines));
    ++found;
  };
  auto line_of = [&](uint32_t r) {
    auto it = own.find(r);
    return it == own.end() ? nullptr : it->second;
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
    own.emplace(me, g);
  }
  std::vector<uint32_t> targets;
  for (const auto& [r, g] : own) {
    targets.push_back(r);
    if (g->next >= 0 && g->next < n) targets.push_back(static_cast<uint32_t>(g->next));
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  for (uint32_t r : targets) {
    auto succ = ring.successors(r);
    if (succ.size() > 1) {
      const auto* g = line_of(r);
      problem(fmt::format("rank {} has {} successors ({})", r, succ.size(), ranks_text(succ).substr(6)), {r},
              {g ? g->line : LineRef{}});
    }
    auto pred = ring.predecessors(r);
    if (pred.size() > 1) {
      std::vector<LineRef> lines;
      for (uint32_t p : pred) {
        if (const auto* g = line_of(p)) lines.push_back(g->line);
      }
      std::vector<uint32_t> who = pred;
      who.push_back(r);
      problem(fmt::format("{} all pass to rank {}", ranks_text(pred), r), who, lines);
    }
    // Each rank also names its predecessor: it must agree with that rank's next.
    const auto* mine = line_of(r);
    if (mine && mine->prev >= 0 && mine->prev < n) {
      auto p = static_cast<uint32_t>(mine->prev);
      const auto* theirs = line_of(p);
      if (theirs && theirs->next >= 0 && theirs->next != r) {
        problem(fmt::format("rank {} says its predecessor is rank {}, but rank {} passes to rank {}", r, p, p,
                            theirs->next),
                {r, p}, {mine->line, theirs->line});
      }
    }
  }
  if (found == 0 && own.size() == n && !ring.is_single_cycle()) {
    // Follow the cycle through rank 0 and name the ranks it leaves out.
    std::vector<bool> seen(n, false);
    uint32_t r = 0;
    size_t steps = 0;
    while (!seen[r] && steps++ < n) {
      seen[r] = true;
      auto next = ring.next(r);
      if (!next || *next >= n) break;
      r = *next;
    }
    std::vector<uint32_t> left_out;
    std::vector<LineRef> lines;
    for (uint32_t i = 0; i < n; ++i) {
      if (!seen[i]) left_out.push_back(i);
      if (seen[i] && lines.size() < 4) lines.push_back(own.at(i)->line);
    }
    problem(fmt::format("the cycle through rank 0 closes after {} of {} ranks and skips {}", n - left_out.size(), n,
                        ranks_text(left_out)),
            left_out, lines);
  }
}

// The rank-0 listing `Channel NN/MM : 0 1 2 3`. NCCL prints only its head in
// large jobs (20 ranks up to 2.22, 127 characters from 2.23), so a listing
// shorter than the ring is no fault (ring-incomplete notes it); only what
// the listing does show can be wrong: a rank past nranks, or one rank twice.
void check_listing(const Communicator& comm, const ListingRecord& l, ChannelProblems& problems) {
  uint32_t n = comm.size();
  std::set<uint32_t> seen;
  size_t readable = l.readable(n);
  for (size_t i = 0; i < readable; ++i) {
    uint32_t r = l.ranks[i];
    if (r >= n) {
      problems.add(fmt::format("the ring listing names rank {}, past nranks {}", r, n), l.channel, {r}, {l.line});
      return;
    }
    if (!seen.insert(r).second) {
      problems.add(fmt::format("the ring listing names rank {} twice", r), l.channel, {r}, {l.line});
      return;
    }
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

std::unique_ptr<Rule> make_ring_broken() { return std::make_unique<RingBroken>(); }

}  // namespace nd
