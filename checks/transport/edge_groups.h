#pragma once
// Shared by the transport rules: walks every merged edge with its locality and
// transport, and folds matching edges into one finding per host pair instead
// of one per connection line.

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
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

// Calls fn(EdgeView) for every merged edge with a transport. A template, so
// that each rule's pass over hundreds of thousands of edges inlines its body.
template <class Fn>
void for_each_edge(const JobModel& model, Fn&& fn) {
  auto gdr = [&](uint16_t id) { return id != kNoTransport && model.transports[id].gdr; };
  for (size_t ci = 0; ci < model.comms.size(); ++ci) {
    const Communicator& comm = model.comms[ci];
    for (const Edge& e : comm.edges) {
      uint16_t t = e.transport();
      if (t == kNoTransport) continue;
      fn(EdgeView{ci, comm, e, model.transports[t], locality(comm, e.sender, e.receiver),
                  gdr(e.send_transport) || gdr(e.recv_transport)});
    }
  }
}

// Whether the log shows a NET link between two ranks of one host: then a
// NET link whose peer the log cannot place proves nothing about crossing
// hosts (ND3001, ND3006).
bool net_inside_a_host(const JobModel& model);

// The verbs and libfabric families of parsers/transport.h net_family() (IB,
// IBext*, NCCL RDMA Plugin vN, UCX*, AWS Libfabric, Libfabric) plus --allow-net names.
bool is_rdma_network(std::string_view net_name, const CheckOptions& options);
bool is_socket_network(std::string_view net_name);

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

// Groups every edge for which `label_of` returns a non-empty label (such as
// "NET/Socket") and emits the rule's findings; returns whether any edge matched.
template <class LabelOf>
bool report_edges(const CheckContext& ctx, const RuleInfo& info, FindingSink& out, LabelOf&& label_of) {
  EdgeGroups groups(ctx.model, ctx.options);
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    // Before the end of the input, a rank without a host yet may still get
    // one, which would move the link to another group.
    if (ctx.input_open && (e.comm.host_of(e.edge.sender) == kNoHost || e.comm.host_of(e.edge.receiver) == kNoHost)) {
      return;
    }
    std::string label = label_of(e);
    if (!label.empty()) groups.add(e, label);
  });
  groups.emit(info, out);
  return !groups.empty();
}

// NCCL's own routing choice on the edges `label_of` picks: notes, each
// message followed by ": " and `why`, with `fix`; only at the end of the input.
template <class LabelOf>
void report_choice(const CheckContext& ctx, const RuleInfo& info, FindingSink& out, LabelOf&& label_of,
                   std::string_view why, std::string_view fix) {
  if (ctx.input_open) return;
  FindingList notes;
  report_edges(ctx, info, notes, label_of);
  for (Finding& f : notes.findings) {
    f.severity = Severity::Info;
    f.message += ": ";
    f.message += why;
    f.fix = fix;
    out.add(std::move(f));
  }
}

// Why other hosts cannot reach an interface NCCL listed or bootstraps on:
// "a link-local address (valid on one link only)".
std::string why_unreachable(const SocketReach& r);

// The interfaces of a host's socket list that other hosts can reach, in the
// order NCCL listed them: what NCCL_SOCKET_IFNAME should name.
std::vector<std::string> reachable_interfaces(const HostNets& nets);

}  // namespace nd
