#include <algorithm>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"
#include "src/model/ring_graph.h"

namespace nd {
namespace {

class RingSourcesDisagree final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2003", "ring-sources-disagree", Severity::Error, Needs::Log,
                                  "GRAPH ring lines, the ring listing and connection lines name different ring neighbours"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// Cross-checks the ring sources the log has. GRAPH lines against the
// listing: exact. Against connection lines: connIdx 0 mixes ring, tree and
// (2.23+) PAT edges, so rings are never inferred from them; instead each
// ring edge a -> b must have a connection line wherever rank a printed
// collective connection lines on that channel. Before 2.22 NCCL connects
// every ring at init, ring edges first; from 2.22 a channel's ring edges are
// made only if the ring algorithm ran, so that half of the check is skipped.
void RingSourcesDisagree::check(const CheckContext& ctx, FindingSink& out) const {
  bool runtime = connects_at_runtime(ctx.model);
  for (const auto& comm : ctx.model.comms) {
    uint32_t n = comm.size();
    if (comm.synthetic || comm.nranks == 0 || n < 2) continue;
    ChannelProblems problems;
    auto graph = build_rings_from(comm, RingSource::GraphLines);
    std::map<std::pair<uint16_t, uint32_t>, LineRef> graph_line;  // (channel, rank) -> GRAPH line
    for (const auto& g : comm.graph_rings) graph_line.emplace(std::pair{g.channel, static_cast<uint32_t>(g.me)}, g.line);

    // Listing versus GRAPH lines.
    for (const auto& l : comm.listings) {
      auto it = graph.find(l.channel);
      if (it == graph.end()) continue;
      size_t readable = l.readable(n);
      size_t pairs = l.whole(n) ? l.ranks.size() : (readable == 0 ? 0 : readable - 1);
      for (size_t i = 0; i < pairs; ++i) {
        uint32_t a = l.ranks[i], b = l.ranks[(i + 1) % l.ranks.size()];
        auto next = it->second.next(a);
        if (!next || *next == b) continue;
        auto gl = graph_line.find({l.channel, a});
        std::vector<LineRef> lines{l.line};
        if (gl != graph_line.end()) lines.push_back(gl->second);
        problems.add(fmt::format("the ring listing puts rank {} after rank {}, the GRAPH ring line of rank {} says {}",
                                 b, a, a, *next),
                     l.channel, {a, b, *next}, lines);
      }
    }

    if (!runtime) {
      // Ring edges from GRAPH lines, else from the listing.
      auto rings = graph.empty() ? build_rings_from(comm, RingSource::Listing) : graph;
      // The links are sorted by channel, conn index (none as 0), sender and
      // receiver, so a channel's collective links from one sender lie together:
      // searched where they lie, not copied (a large job has hundreds of
      // thousands). A model built otherwise gets a copy in that order.
      auto channel_conn = [](const Edge& e) {
        return std::pair<uint16_t, int>(e.channel, std::max<int>(e.conn_index, 0));
      };
      auto by_sender = [&](const Edge& x, const Edge& y) {
        return std::pair(channel_conn(x), x.sender) < std::pair(channel_conn(y), y.sender);
      };
      std::vector<Edge> sorted_copy;
      std::span<const Edge> links = comm.edges;
      if (!std::is_sorted(links.begin(), links.end(), by_sender)) {
        sorted_copy.assign(links.begin(), links.end());
        std::stable_sort(sorted_copy.begin(), sorted_copy.end(), by_sender);
        links = sorted_copy;
      }
      for (const auto& [channel, ring] : rings) {
        const std::pair<uint16_t, int> collective{channel, 0};
        auto lo = std::partition_point(links.begin(), links.end(),
                                       [&](const Edge& e) { return channel_conn(e) < collective; });
        auto hi = std::partition_point(lo, links.end(), [&](const Edge& e) { return channel_conn(e) <= collective; });
        for (auto run = lo; run != hi;) {
          uint32_t a = run->sender;
          auto run_end = std::find_if(run, hi, [&](const Edge& x) { return x.sender != a; });
          // The first collective line the rank sent on the channel.
          auto sent = std::find_if(run, run_end, [](const Edge& x) { return x.send_transport != kNoTransport; });
          auto from = run;
          run = run_end;
          if (sent == run_end) continue;
          const Edge* e = &*sent;
          auto b = ring.next(a);
          if (!b || std::any_of(from, run_end, [&](const Edge& x) { return x.receiver == *b; })) continue;
          std::vector<LineRef> lines{e->send_line};
          auto gl = graph_line.find({channel, a});
          if (gl != graph_line.end()) lines.push_back(gl->second);
          for (const auto& l : comm.listings) {
            if (l.channel == channel && gl == graph_line.end()) lines.push_back(l.line);
          }
          problems.add(fmt::format("the ring passes from rank {} to rank {}, but rank {}'s connection lines on this "
                                   "channel have no link to rank {}",
                                   a, *b, a, *b),
                       channel, {a, *b}, lines);
        }
      }
    }
    problems.emit(kInfo, ctx, comm, "ring", out);
  }
}

std::unique_ptr<Rule> make_ring_sources_disagree() { return std::make_unique<RingSourcesDisagree>(); }

}  // namespace nd
