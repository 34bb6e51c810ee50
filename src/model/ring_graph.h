#pragma once
// Per-channel ring and tree graphs of one communicator, on Boost.Graph.
// Rules see next(rank), parent(rank) and friends, never Boost types.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "src/model/job_model.h"

namespace nd {

enum class Locality : uint8_t { Intra, Inter, Unknown };

// Intra when both ranks' hosts are known and equal, Inter when known and
// different. Otherwise what NCCL's `nNodes` or P2P/SHM links prove (see
// RankInfo::host_group), and Unknown when nothing does. Inline: the rules
// ask it of every link, once per pass.
inline Locality locality(const Communicator& comm, uint32_t a, uint32_t b) {
  uint32_t ha = comm.host_of(a);
  uint32_t hb = comm.host_of(b);
  if (ha != kNoHost && hb != kNoHost) return ha == hb ? Locality::Intra : Locality::Inter;
  // Without both names, NCCL's own count of nodes (2.20+) may still tell:
  // one node holds every rank, as many nodes as ranks hold one each.
  if (comm.nnodes == 1) return Locality::Intra;
  if (comm.nnodes > 1 && comm.nnodes == comm.size() && a != b) return Locality::Inter;
  uint32_t ga = a < comm.ranks.size() ? comm.ranks[a].host_group : kNoHost;
  uint32_t gb = b < comm.ranks.size() ? comm.ranks[b].host_group : kNoHost;
  if (ga != kNoHost && ga == gb) return Locality::Intra;
  return Locality::Unknown;
}

struct LinkProps {
  Locality locality = Locality::Unknown;
  LineRef line;
};

class ChannelGraph {
 public:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                      boost::no_property, LinkProps>;

  explicit ChannelGraph(uint32_t nranks = 0) : graph_(nranks) {}

  void add_link(uint32_t from, uint32_t to, LinkProps props);
  uint32_t rank_count() const { return static_cast<uint32_t>(boost::num_vertices(graph_)); }
  std::vector<uint32_t> successors(uint32_t rank) const;
  std::vector<uint32_t> predecessors(uint32_t rank) const;
  // Number of strongly connected components among ranks that have links.
  size_t strong_component_count() const;

 protected:
  Graph graph_;
};

enum class RingSource : uint8_t { GraphLines, Listing, Connections };

class RingGraph : public ChannelGraph {
 public:
  using ChannelGraph::ChannelGraph;
  RingSource source = RingSource::Connections;
  std::optional<uint32_t> next(uint32_t rank) const;
  // True when successor links form one cycle through all rank_count() ranks.
  bool is_single_cycle() const;
};

class TreeGraph : public ChannelGraph {  // links point child -> parent
 public:
  using ChannelGraph::ChannelGraph;
  std::optional<uint32_t> parent(uint32_t rank) const;
  std::vector<uint32_t> roots() const;  // ranks with children and no parent
};

// Where a communicator's rings are read from: GRAPH `Ring` lines when
// present, else the rank-0 listing when it is whole on every channel, else
// connIndex-0 connection edges.
RingSource ring_source(const Communicator& comm);
// Rings per channel, from ring_source().
std::map<uint16_t, RingGraph> build_rings(const Communicator& comm);
// Rings per channel from one source only, for cross-checks (each graph holds
// the ranks its links name, not nranks vertices): GRAPH lines
// (links me -> next), the listing (a cut listing links only the ranks it
// prints and does not close the ring), or connIndex-0 connection edges.
std::map<uint16_t, RingGraph> build_rings_from(const Communicator& comm, RingSource source);
// Trees per channel from `Trees` lines.
std::map<uint16_t, TreeGraph> build_trees(const Communicator& comm);

}  // namespace nd
