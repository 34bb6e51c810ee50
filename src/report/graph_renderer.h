#pragma once
// `nccl-doctor graph`: the rings and trees of one communicator as Graphviz
// DOT (through Boost.Graph's writer), JSON (schema nccl-doctor.graph/1) or
// terminal text; per rank with ranks clustered by host, or per host with
// the links between two hosts aggregated into one edge per transport; at
// cluster scale the hosts whose links are all fine fold into one node
// (graph_fold.h).

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "checks/rule.h"
#include "src/model/job_model.h"

namespace nd {

inline constexpr const char* kGraphSchema = "nccl-doctor.graph/1";

// Auto: rank level up to `rank_level_max_ranks` ranks, else host level.
enum class GraphLevel : uint8_t { Rank, Host, Auto };

// Above these sizes a rank-level picture takes Graphviz minutes (8192 ranks:
// more than five) and a host-level one is a wall of identical boxes.
inline constexpr uint32_t kRankLevelMaxRanks = 256;
inline constexpr uint32_t kFoldAboveHosts = 64;

struct GraphRequest {
  size_t comm = 0;                        // index into JobModel::comms
  std::optional<uint16_t> channel;        // nullopt: all channels
  bool rings = true;
  bool trees = true;
  GraphLevel level = GraphLevel::Rank;
  uint32_t rank_level_max_ranks = kRankLevelMaxRanks;  // for Auto
  uint32_t fold_above_hosts = kFoldAboveHosts;         // host level; 0: never fold
  CheckOptions options;
};

struct GraphNode {
  std::string id;               // "r0" or "h0"
  uint32_t host = kNoHost;
  std::string host_name;        // "host unknown" for kNoHost
  int64_t rank = -1;            // rank level only
  int gpu = -1;                 // nvmlDev, else cudaDev (rank level)
  uint32_t ranks = 0;           // host level: ranks of the communicator on it
  std::set<std::string> inside; // host level: transports between its own ranks
  uint32_t hosts = 0;           // folded node: the hosts it stands for (0: one host)
  std::map<std::string, uint64_t> between;  // folded node: links among its hosts by transport
  Severity problem = Severity::Info;
  bool has_problem = false;
  std::string problem_why;
};

struct GraphEdge {
  size_t from = 0;  // node indices
  size_t to = 0;
  std::string kind;  // "ring", "tree", "ring+tree" (host level)
  std::string transport;
  std::set<uint16_t> channels;
  uint64_t links = 0;  // rank-level links folded into this edge
  bool has_problem = false;
  Severity problem = Severity::Info;
  std::string problem_why;
};

// What a host-level view folded: `folded` of `hosts` hosts are one node,
// `shown` keep their own.
struct GraphFold {
  uint32_t hosts = 0;
  uint32_t folded = 0;
  uint32_t shown = 0;
};

struct GraphView {
  std::string comm;
  GraphLevel level = GraphLevel::Rank;  // Rank or Host, never Auto
  std::optional<GraphFold> fold;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  std::vector<uint16_t> ring_channels;  // drawn
  std::vector<uint16_t> tree_channels;
};

// Index of the communicator named `id` (commId, "#k/n" key, or a unique
// prefix of the commId); the primary communicator (job_summary.h) when `id`
// is empty.
std::optional<size_t> find_comm(const JobModel& model, const std::string& id);

GraphView build_graph(const JobModel& model, const GraphRequest& request);

std::string render_graph_dot(const GraphView& view);
std::string render_graph_json(const GraphView& view);
// One block per ring or tree channel, at most 80 columns for small jobs
// (graph_text.cpp).
std::string render_graph_text(const JobModel& model, const GraphRequest& request);

// Looks up the merged connection edge of a ring or tree link.
class EdgeIndex {
 public:
  explicit EdgeIndex(const Communicator& comm);
  const Edge* find(uint16_t ch, uint32_t a, uint32_t b) const;
  // A link inside one (known) host without a line of its own: the edge its
  // two ranks printed on any channel, either way. NCCL picks P2P or SHM per
  // pair of GPUs, the same on every channel.
  const Edge* find_pair_inside(uint32_t a, uint32_t b) const;

 private:
  const Communicator& comm_;
  std::map<std::tuple<uint16_t, uint32_t, uint32_t>, const Edge*> edges_;
  std::map<std::pair<uint32_t, uint32_t>, const Edge*> inside_;
};

// The transport of a ring or tree link whose connection line is not in the
// log (not printed because the ring already made it, or runtime connection).
inline constexpr const char* kNoLine = "no line";

// Text from a log made safe inside a DOT quoted string.
std::string dot_text(std::string_view text);

}  // namespace nd
