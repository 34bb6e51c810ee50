#pragma once
// Shared by the transport rules: walks every merged edge with its locality and
// transport, and folds matching edges into one finding per host pair instead
// of one per connection line.

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "checks/rule.h"
#include "parsers/net_devices.h"
#include "src/model/job_model.h"
#include "src/model/ring_graph.h"

namespace nd {

struct EdgeView {
  size_t comm_index;
  const Communicator& comm;
  const Edge& edge;
  const Transport& transport;  // as the sender printed it, else the receiver
  Locality locality;
  bool gdr;  // either side printed /GDRDMA
};

void for_each_edge(const JobModel& model, const std::function<void(const EdgeView&)>& fn);

// Whether the log shows a NET link between two ranks of one host: then a
// NET link whose peer the log cannot place proves nothing about crossing
// hosts (ND3001, ND3006).
bool net_inside_a_host(const JobModel& model);

// The verbs and libfabric families of parsers/transport.h net_family() (IB,
// IBext*, NCCL RDMA Plugin vN, UCX*, AWS Libfabric, Libfabric) plus --allow-net names.
bool is_rdma_network(std::string_view net_name, const CheckOptions& options);
bool is_socket_network(std::string_view net_name);

// Groups every edge for which `label_of` returns a non-empty label (such as
// "NET/Socket") and emits the rule's findings; returns whether any edge matched.
bool report_edges(const CheckContext& ctx, const RuleInfo& info, FindingSink& out,
                  const std::function<std::string(const EdgeView&)>& label_of);

// NCCL's own routing choice on the edges `label_of` picks: notes, each
// message followed by ": " and `why`, with `fix`; only at the end of the input.
void report_choice(const CheckContext& ctx, const RuleInfo& info, FindingSink& out,
                   const std::function<std::string(const EdgeView&)>& label_of, std::string_view why,
                   std::string_view fix);

class EdgeGroups {
 public:
  EdgeGroups(const JobModel& model, const CheckOptions& options) : model_(model), options_(options) {}

  void add(const EdgeView& e, const std::string& label);
  // One finding per host pair; past kMaxPairs pairs of one communicator and
  // label, one summary finding for all of them.
  void emit(const RuleInfo& info, FindingSink& out) const;
  bool empty() const { return groups_.empty(); }

  static constexpr size_t kMaxPairs = 8;

 private:
  struct Group {
    std::vector<uint32_t> ranks_a, ranks_b, channels;
    bool a_to_b = false, b_to_a = false;
    size_t connections = 0;
    std::vector<LineRef> lines;  // a bounded sample
  };
  using Key = std::tuple<size_t, std::string, uint32_t, uint32_t>;  // comm, label, host a, host b

  Finding make(const RuleInfo& info, const Key& key, const Group& g) const;
  std::vector<Evidence> evidence(const std::vector<LineRef>& lines) const;

  const JobModel& model_;
  const CheckOptions& options_;
  std::map<Key, Group> groups_;
};

// Why other hosts cannot reach an interface NCCL listed or bootstraps on:
// "a link-local address (valid on one link only)".
std::string why_unreachable(const SocketReach& r);

// The interfaces of a host's socket list that other hosts can reach, in the
// order NCCL listed them: what NCCL_SOCKET_IFNAME should name.
std::vector<std::string> reachable_interfaces(const HostNets& nets);

}  // namespace nd
