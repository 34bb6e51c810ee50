// ND3006 socket-interface-unreachable: an inter-node socket connection uses an interface other hosts cannot reach.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"
#include "parsers/net_devices.h"
#include "src/util/ranges.h"

namespace nd {
namespace {

class SocketInterfaceUnreachable final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3006", "socket-interface-unreachable", Severity::Error, Needs::Log,
                                  "an inter-node socket connection uses an interface other hosts cannot reach"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

struct Use {
  std::set<uint32_t> ranks;
  std::set<uint16_t> channels;
  size_t connections = 0;
  std::vector<LineRef> lines;
};

}  // namespace

void SocketInterfaceUnreachable::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  // As ND3001: a NET link whose peer the log cannot place crosses hosts,
  // unless the log shows NET inside a host.
  const bool net_inside = net_inside_a_host(m);
  // A line without a host prefix reads the list printed without one, or the
  // list of the log's only host.
  const HostNets* hostless_list = nullptr;
  size_t socket_lists = 0;
  for (const auto& n : m.host_nets) {
    if (n.net != "Socket") continue;
    ++socket_lists;
    if (n.host == kNoHost || m.hosts.size() == 1) hostless_list = &n;
  }
  if (socket_lists == 0) return;

  bool sockets_cross_hosts = false;
  std::map<std::pair<const HostNets*, int>, Use> used;  // (list, device) -> connections on it
  std::set<const HostNets*> connected;                  // lists with a connection between hosts seen
  for_each_edge(m, [&](const EdgeView& e) {
    if (e.transport.family != TransportFamily::NET || !is_socket_network(e.transport.net_name)) return;
    if (e.locality == Locality::Intra || (e.locality == Locality::Unknown && net_inside)) return;
    sockets_cross_hosts = true;
    // The device number is the printing side's: the sender's for a [send] line.
    for (auto [rank, transport, line] : {std::tuple{e.edge.sender, e.edge.send_transport, e.edge.send_line},
                                         std::tuple{e.edge.receiver, e.edge.recv_transport, e.edge.recv_line}}) {
      if (transport == kNoTransport) continue;
      const Transport& t = m.transports[transport];
      uint32_t host = e.comm.host_of(rank);
      const HostNets* nets = host == kNoHost ? hostless_list : m.nets_of(host, "Socket");
      if (!nets || t.net_dev < 0) continue;
      connected.insert(nets);
      for (const auto& d : nets->devices) {
        if (d.index != t.net_dev || !socket_reach(d.name, d.address).unreachable()) continue;
        Use& u = used[{nets, d.index}];
        u.ranks.insert(rank);
        u.channels.insert(e.edge.channel);
        ++u.connections;
        if (u.lines.size() < ctx.options.max_evidence) u.lines.push_back(line);
      }
    }
  });

  bool job_crosses_hosts = sockets_cross_hosts || m.hosts.size() > 1 || m.unclaimed_shape_nnodes > 1;
  bool socket_network = sockets_cross_hosts || m.using_network.count("Socket") > 0;
  // Socket failures anywhere: another host's connection to this one fails.
  bool socket_trouble = std::any_of(m.warnings.begin(), m.warnings.end(), [](const WarnRecord& w) {
    return w.cls.kind == WarnKind::Socket || w.returned_to_caller;
  });
  auto init_completed = [&](uint32_t host) {
    for (const auto& p : m.processes) {
      if (p.host == host && p.init_completes > 0) return true;
    }
    return false;
  };
  for (const auto& nets : m.host_nets) {
    if (nets.net != "Socket") continue;
    bool named = nets.host != kNoHost;
    std::string host = m.host_name(nets.host);
    std::string good = fmt::format("{}", fmt::join(reachable_interfaces(nets), ","));
    for (const auto& d : nets.devices) {
      SocketReach reach = socket_reach(d.name, d.address);
      if (!reach.unreachable()) continue;
      std::string address(d.address.substr(0, d.address.find('<')));
      Finding f = make_finding(kInfo, "");
      f.subject = fmt::format("{}/{}", host, d.name);
      if (named) f.hosts = {host};
      std::string fix = good.empty() ? std::string("set NCCL_SOCKET_IFNAME to the interface of the network between hosts")
                                     : fmt::format("set NCCL_SOCKET_IFNAME={}", good);
      if (auto it = used.find({&nets, d.index}); it != used.end()) {
        const Use& u = it->second;
        std::vector<uint32_t> ranks(u.ranks.begin(), u.ranks.end());
        std::vector<uint32_t> channels(u.channels.begin(), u.channels.end());
        f.message = fmt::format(
            "rank{} {} {} connect{} to other hosts over NET/Socket/{}, {} ({}): {}; other hosts cannot reach it, "
            "so these connections fail or hang (channel{} {}, {} connection{}); {}",
            ranks.size() == 1 ? "" : "s", format_ranges(ranks), named ? "on " + host : "(host unknown)",
            ranks.size() == 1 ? "s" : "", d.index, d.name, address, why_unreachable(reach),
            channels.size() == 1 ? "" : "s", format_ranges(channels, 2), u.connections, u.connections == 1 ? "" : "s",
            fix);
        f.ranks = ranks;
        for (LineRef line : u.lines) cite(m, f, line, ctx.options.max_evidence);
        cite(m, f, nets.line, ctx.options.max_evidence);
        out.add(std::move(f));
        continue;
      }
      // Listed, no connection seen on it. NCCL spreads channels over every
      // interface of the list, so a job between hosts may put some on it;
      // connections seen on the others, or an init that completed, say it
      // did not, whatever failed later.
      if (!job_crosses_hosts || !socket_network) continue;
      if (connected.count(&nets) || init_completed(nets.host)) continue;
      std::string where = named ? fmt::format("NCCL's socket network on {}", host) : "NCCL's socket network";
      if (socket_trouble) {
        f.severity = Severity::Warning;
        f.message = fmt::format(
            "{} lists {} ({}): {}; NCCL spreads channels over every interface it lists, and connections from other "
            "hosts over this one fail or hang: a likely cause of the socket failures this log shows; {}",
            where, d.name, address, why_unreachable(reach), fix);
      } else {
        f.severity = Severity::Info;
        f.message = fmt::format(
            "{} lists {} ({}): {}; the log shows no connection on it and no init that completed, so whether NCCL put "
            "channels on it was not checked; if connections between hosts hang, {}",
            where, d.name, address, why_unreachable(reach), fix);
      }
      cite(m, f, nets.line, ctx.options.max_evidence);
      out.add(std::move(f));
    }
  }
}

std::unique_ptr<Rule> make_socket_interface_unreachable() { return std::make_unique<SocketInterfaceUnreachable>(); }

}  // namespace nd
