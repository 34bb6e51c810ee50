#include "src/model/ring_graph.h"

#include <boost/graph/strong_components.hpp>

namespace nd {

void ChannelGraph::add_link(uint32_t from, uint32_t to, LinkProps props) {
  uint32_t need = std::max(from, to) + 1;
  while (boost::num_vertices(graph_) < need) boost::add_vertex(graph_);
  auto [existing, found] = boost::edge(from, to, graph_);
  if (!found) boost::add_edge(from, to, props, graph_);
}

std::vector<uint32_t> ChannelGraph::successors(uint32_t rank) const {
  std::vector<uint32_t> out;
  if (rank >= rank_count()) return out;
  for (auto [it, end] = boost::out_edges(rank, graph_); it != end; ++it) {
    out.push_back(static_cast<uint32_t>(boost::target(*it, graph_)));
  }
  return out;
}

std::vector<uint32_t> ChannelGraph::predecessors(uint32_t rank) const {
  std::vector<uint32_t> out;
  if (rank >= rank_count()) return out;
  for (auto [it, end] = boost::in_edges(rank, graph_); it != end; ++it) {
    out.push_back(static_cast<uint32_t>(boost::source(*it, graph_)));
  }
  return out;
}

size_t ChannelGraph::strong_component_count() const {
  if (rank_count() == 0) return 0;
  std::vector<int> component(rank_count());
  boost::strong_components(graph_, boost::make_iterator_property_map(component.begin(),
                                                                     boost::get(boost::vertex_index, graph_)));
  std::vector<bool> seen(rank_count(), false);
  size_t count = 0;
  for (uint32_t v = 0; v < rank_count(); ++v) {
    if (boost::out_degree(v, graph_) == 0 && boost::in_degree(v, graph_) == 0) continue;
    auto c = static_cast<size_t>(component[v]);
    if (!seen[c]) {
      seen[c] = true;
      ++count;
    }
  }
  return count;
}

std::optional<uint32_t> RingGraph::next(uint32_t rank) const {
  auto s = successors(rank);
  if (s.size() != 1) return std::nullopt;
  return s.front();
}

bool RingGraph::is_single_cycle() const {
  uint32_t n = rank_count();
  if (n == 0) return false;
  for (uint32_t v = 0; v < n; ++v) {
    if (boost::out_degree(v, graph_) != 1 || boost::in_degree(v, graph_) != 1) return false;
  }
  return strong_component_count() == 1;
}

std::optional<uint32_t> TreeGraph::parent(uint32_t rank) const {
  auto s = successors(rank);
  if (s.size() != 1) return std::nullopt;
  return s.front();
}

std::vector<uint32_t> TreeGraph::roots() const {
  std::vector<uint32_t> out;
  for (uint32_t v = 0; v < rank_count(); ++v) {
    if (boost::out_degree(v, graph_) == 0 && boost::in_degree(v, graph_) > 0) out.push_back(v);
  }
  return out;
}

RingSource ring_source(const Communicator& comm) {
  if (!comm.graph_rings.empty()) return RingSource::GraphLines;
  bool whole = !comm.listings.empty() && std::all_of(comm.listings.begin(), comm.listings.end(),
                                                     [&](const ListingRecord& l) { return l.whole(comm.size()); });
  return whole ? RingSource::Listing : RingSource::Connections;
}

namespace {

// Rings per channel from `source`, each graph made with `vertices` ranks.
std::map<uint16_t, RingGraph> rings_of(const Communicator& comm, RingSource source, uint32_t vertices) {
  std::map<uint16_t, RingGraph> rings;
  uint32_t n = comm.size();
  auto ring = [&](uint16_t ch) -> RingGraph& {
    auto [it, inserted] = rings.try_emplace(ch, vertices);
    if (inserted) it->second.source = source;
    return it->second;
  };
  switch (source) {
    case RingSource::GraphLines:
      for (const auto& g : comm.graph_rings) {
        if (g.next < 0 || g.me < 0) continue;
        auto me = static_cast<uint32_t>(g.me);
        auto next = static_cast<uint32_t>(g.next);
        ring(g.channel).add_link(me, next, {locality(comm, me, next), g.line});
      }
      break;
    case RingSource::Listing:
      for (const auto& l : comm.listings) {
        auto& g = ring(l.channel);
        size_t readable = l.readable(n);
        size_t pairs = l.whole(n) ? l.ranks.size() : (readable == 0 ? 0 : readable - 1);
        for (size_t i = 0; i < pairs; ++i) {
          uint32_t a = l.ranks[i];
          uint32_t b = l.ranks[(i + 1) % l.ranks.size()];
          g.add_link(a, b, {locality(comm, a, b), l.line});
        }
      }
      break;
    case RingSource::Connections:
      for (const auto& e : comm.edges) {
        if (e.conn_index > 0) continue;
        ring(e.channel).add_link(e.sender, e.receiver, {locality(comm, e.sender, e.receiver), e.line()});
      }
      break;
  }
  return rings;
}

}  // namespace

std::map<uint16_t, RingGraph> build_rings(const Communicator& comm) {
  // ring_source() reads a listing only when it is whole on every channel.
  return rings_of(comm, ring_source(comm), comm.size());
}

std::map<uint16_t, RingGraph> build_rings_from(const Communicator& comm, RingSource source) {
  return rings_of(comm, source, 0);
}

std::map<uint16_t, TreeGraph> build_trees(const Communicator& comm) {
  std::map<uint16_t, TreeGraph> trees;
  for (const auto& t : comm.trees) {
    if (t.entry.nvls) continue;
    auto [it, inserted] = trees.try_emplace(static_cast<uint16_t>(t.entry.channel), comm.size());
    auto me = static_cast<uint32_t>(t.entry.me);
    if (t.entry.up >= 0) {
      auto up = static_cast<uint32_t>(t.entry.up);
      it->second.add_link(me, up, {locality(comm, me, up), t.line});
    }
    for (int64_t d : t.entry.down) {
      if (d < 0) continue;
      auto child = static_cast<uint32_t>(d);
      it->second.add_link(child, me, {locality(comm, child, me), t.line});
    }
  }
  return trees;
}

}  // namespace nd
