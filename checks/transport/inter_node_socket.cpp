#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {

// A NET edge counts as inter-node when its hosts differ, and also when the
// peer's host is not in the log: NCCL only uses NET inside a node when P2P
// and SHM are both off, which intra-node-net reports when it can tell.
void InterNodeSocket::check(const CheckContext& ctx, FindingSink& out) const {
  bool found = report_edges(ctx, kInfo, out, [](const EdgeView& e) {
    bool socket = e.transport.family == TransportFamily::NET && e.locality != Locality::Intra &&
                  is_socket_network(e.transport.net_name);
    return socket ? "NET/" + e.transport.net_name : std::string();
  });
  if (found) return;

  // 2.22+ connects lazily, so a log may end before any connection line; then
  // the `Using network Socket` choice of a multi-host job is the evidence.
  // The `NET/Socket : Using` bootstrap line alone is not.
  auto it = ctx.model.using_network.find("Socket");
  if (it == ctx.model.using_network.end() || ctx.model.hosts.size() < 2) return;
  bool saw_inter_net = false;
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    saw_inter_net |= e.transport.family == TransportFamily::NET && e.locality != Locality::Intra;
  });
  if (saw_inter_net) return;
  std::set<std::string> hosts;
  Finding f = make_finding(kInfo, "");
  for (const auto& o : it->second) {
    if (o.host != kNoHost) hosts.insert(ctx.model.host_name(o.host));
    if (f.evidence.size() < ctx.options.max_evidence) {
      const std::string* text = ctx.model.text_of(o.line);
      f.evidence.push_back({ctx.model.files[o.line.file], o.line.line, text ? *text : ""});
    }
  }
  f.hosts.assign(hosts.begin(), hosts.end());
  f.message = fmt::format("NCCL chose network Socket on {} of a {}-host job ('Using network Socket'); "
                          "the log has no inter-node connection lines to show which links use it",
                          hosts.size() == 1 ? *hosts.begin() : fmt::format("{} hosts", hosts.size()),
                          ctx.model.hosts.size());
  out.add(std::move(f));
}

}  // namespace nd
