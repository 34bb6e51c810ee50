#include <algorithm>
#include <tuple>
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
      // Sorted vectors, not maps: a large job has hundreds of thousands of edges.
      std::vector<std::tuple<uint16_t, uint32_t, uint32_t>> edges;
      struct Sent {  // the first collective line each rank sent on a channel
        uint16_t channel;
        uint32_t sender;
        size_t order;
        const Edge* edge;
        bool operator<(const Sent& o) const {
          return std::tie(channel, sender, order) < std::tie(o.channel, o.sender, o.order);
        }
      };
      std::vector<Sent> sent;
      for (const auto& e : comm.edges) {
        if (e.conn_index > 0) continue;
        edges.emplace_back(e.channel, e.sender, e.receiver);
        if (e.send_transport != kNoTransport) sent.push_back({e.channel, e.sender, sent.size(), &e});
      }
      // Already in order, unless a channel holds links with and without a conn index.
      if (!std::is_sorted(edges.begin(), edges.end())) std::sort(edges.begin(), edges.end());
      if (!std::is_sorted(sent.begin(), sent.end())) std::sort(sent.begin(), sent.end());
      sent.erase(std::unique(sent.begin(), sent.end(),
                             [](const Sent& x, const Sent& y) { return x.channel == y.channel && x.sender == y.sender; }),
                 sent.end());
      for (const auto& [channel, ring] : rings) {
        auto first = std::lower_bound(sent.begin(), sent.end(), Sent{channel, 0, 0, nullptr});
        for (auto it = first; it != sent.end() && it->channel == channel; ++it) {
          const Edge* e = it->edge;
          uint32_t a = it->sender;
          auto b = ring.next(a);
          if (!b || std::binary_search(edges.begin(), edges.end(), std::tuple{channel, a, *b})) continue;
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
