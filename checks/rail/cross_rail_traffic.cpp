#include <fmt/format.h>

#include "checks/rail/rail_rules.h"
#include "checks/transport/edge_groups.h"
#include "src/model/rail_map.h"

namespace nd {

// Needs both halves of a NET edge: the sender's line names the NIC it sends
// from, the receiver's line the NIC it receives on. NICs compare by name when
// both hosts listed their devices (so differently numbered hosts still match),
// else by netDev.
void CrossRailTraffic::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    if (e.locality != Locality::Inter) return std::string();
    if (e.edge.send_transport == kNoTransport || e.edge.recv_transport == kNoTransport) return std::string();
    const Transport& s = m.transports[e.edge.send_transport];
    const Transport& r = m.transports[e.edge.recv_transport];
    if (s.family != TransportFamily::NET || r.family != TransportFamily::NET) return std::string();
    if (s.net_dev < 0 || r.net_dev < 0 || is_socket_network(s.net_name)) return std::string();
    uint32_t hs = e.comm.host_of(e.edge.sender);
    uint32_t hr = e.comm.host_of(e.edge.receiver);
    std::string from = nic_name(m, hs, s.net_name, s.net_dev);
    std::string to = nic_name(m, hr, r.net_name, r.net_dev);
    bool named = listed_nets(m, hs, s.net_name) && listed_nets(m, hr, r.net_name);
    bool same = named ? from == to : s.net_dev == r.net_dev;
    if (same) return std::string();
    return fmt::format("NIC {} -> NIC {}", from, to);
  });
}

}  // namespace nd
