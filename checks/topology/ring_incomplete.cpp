#include <algorithm>
#include <set>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"
#include "src/model/channels.h"

namespace nd {
namespace {

class RingIncomplete final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2002", "ring-incomplete", Severity::Info, Needs::Log,
                                  "some ranks' ring lines are missing from the log, so a ring cannot be closed"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

namespace {

// A listing shows only the head of a large ring. The rest is in the GRAPH
// lines when the log has them, and before 2.22 in the connection lines made
// at init; otherwise it is not in the log at all.
void note_cut_listings(const JobModel& model, const Communicator& comm, ChannelProblems& problems) {
  uint32_t n = comm.size();
  ChannelSet graph_channels;
  for (const auto& g : comm.graph_rings) graph_channels.insert(g.channel);
  if (!connects_at_runtime(model)) {
    for (const auto& e : comm.edges) graph_channels.insert(e.channel);
  }
  for (const auto& l : comm.listings) {
    // A listing as long as the ring is whole or wrong (ring-broken's call).
    if (l.readable(n) >= n || l.ranks.size() >= n || graph_channels.contains(l.channel)) continue;
    const char* limit = l.four_byte_slots && l.ranks.size() >= 20 ? "NCCL up to 2.22 prints at most 20 ranks"
                        : l.readable(n) < l.ranks.size()           ? "ranks of 4 digits lose digits in NCCL's slots"
                        : l.truncated                              ? "NCCL prints at most 127 characters of it"
                                                                   : "the line is cut short";
    problems.add(fmt::format("the ring listing shows {} of {} ranks ({}) and the log has no GRAPH ring lines "
                             "(`Ring NN : p -> r -> n`, NCCL 2.10+ with NCCL_DEBUG_SUBSYS=INIT,GRAPH): the ring is "
                             "not fully visible and was checked only between the ranks shown",
                             l.readable(n), n, limit),
                 l.channel, {}, {l.line});
  }
}

}  // namespace

// GRAPH ring lines come from every rank; when some ranks printed none the
// log is incomplete (per-rank files missing, a host's output lost), which is
// not the same as a broken ring and is reported apart from ND2001.
void RingIncomplete::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& comm : ctx.model.comms) {
    uint32_t n = comm.size();
    if (comm.synthetic || comm.nranks == 0 || n < 2) continue;
    ChannelProblems problems;
    note_cut_listings(ctx.model, comm, problems);
    std::map<uint16_t, std::set<uint32_t>> present;
    std::map<uint16_t, std::vector<LineRef>> lines;
    for (const auto& g : comm.graph_rings) {
      if (g.me >= 0 && g.me < n) present[g.channel].insert(static_cast<uint32_t>(g.me));
      if (lines[g.channel].size() < 2) lines[g.channel].push_back(g.line);
    }
    for (const auto& [channel, p] : present) {
      if (p.size() == n) continue;
      // Name the missing ranks only while that list stays small.
      std::vector<uint32_t> missing;
      for (uint32_t r = 0; r < n && n <= (1u << 16); ++r) {
        if (!p.count(r)) missing.push_back(r);
      }
      std::string who = missing.empty() ? fmt::format("{} ranks", n - p.size()) : ranks_text(missing);
      problems.add(fmt::format("the log has GRAPH ring lines from {} of {} ranks; {} printed none, so the ring "
                               "cannot be closed (checked only between the ranks present)",
                               p.size(), n, who),
                   channel, missing, lines[channel]);
    }
    problems.emit(kInfo, ctx, comm, "ring", out);
  }
}

std::unique_ptr<Rule> make_ring_incomplete() { return std::make_unique<RingIncomplete>(); }

}  // namespace nd
