#include <cstdint>
#include <string>
#include <unordered_map>

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
  // A NIC's name, and whether its host listed its devices, by host and
  // transport: asked for twice per inter-node edge, a few thousand answers.
  struct Nic {
    std::string name;
    bool listed = false;
  };
  std::unordered_map<uint64_t, Nic> nics;
  auto nic = [&](uint32_t host, uint16_t transport) -> const Nic& {
    auto [it, fresh] = nics.try_emplace(uint64_t{host} << 16 | transport);
    if (fresh) {
      const Transport& t = m.transports[transport];
      it->second = {nic_name(m, host, t.net_name, t.net_dev), listed_nets(m, host, t.net_name) != nullptr};
    }
    return it->second;
  };
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    if (e.locality != Locality::Inter) return std::string();
    if (e.edge.send_transport == kNoTransport || e.edge.recv_transport == kNoTransport) return std::string();
    const Transport& s = m.transports[e.edge.send_transport];
    const Transport& r = m.transports[e.edge.recv_transport];
    if (s.family != TransportFamily::NET || r.family != TransportFamily::NET) return std::string();
    if (s.net_dev < 0 || r.net_dev < 0 || is_socket_network(s.net_name)) return std::string();
    const Nic& from = nic(e.comm.host_of(e.edge.sender), e.edge.send_transport);
    const Nic& to = nic(e.comm.host_of(e.edge.receiver), e.edge.recv_transport);
    bool same = from.listed && to.listed ? from.name == to.name : s.net_dev == r.net_dev;
    if (same) return std::string();
    return fmt::format("NIC {} -> NIC {}", from.name, to.name);
  });
}

}  // namespace nd
