#include "src/report/job_links.h"

#include <fmt/format.h>

#include "checks/transport/edge_groups.h"
#include "src/model/rail_map.h"
#include "src/model/ring_graph.h"
#include "src/util/text.h"

namespace nd {

std::string link_label(const JobModel& model, const Edge& edge) {
  uint16_t id = edge.transport();
  if (id == kNoTransport || id >= model.transports.size()) return "?";
  const Transport& t = model.transports[id];
  auto gdr = [&] {
    for (uint16_t side : {edge.send_transport, edge.recv_transport}) {
      if (side != kNoTransport && side < model.transports.size() && model.transports[side].gdr) return true;
    }
    return false;
  };
  switch (t.family) {
    case TransportFamily::P2P: return "P2P";
    case TransportFamily::SHM: return "SHM";
    case TransportFamily::NET:
      return "NET/" + t.net_name + (gdr() ? "+GDR" : "");
    case TransportFamily::CollNet: return "CollNet/" + t.net_name;
    case TransportFamily::Unknown: break;
  }
  return t.raw.empty() ? "?" : t.raw;
}

LinkProblem link_problem(const JobModel& model, const Communicator& comm, const Edge& edge,
                         const CheckOptions& options) {
  uint16_t id = edge.transport();
  if (id == kNoTransport || id >= model.transports.size()) return {};
  const Transport& t = model.transports[id];
  Locality where = locality(comm, edge.sender, edge.receiver);
  bool gdr = false;
  for (uint16_t side : {edge.send_transport, edge.recv_transport}) {
    if (side != kNoTransport && model.transports[side].gdr) gdr = true;
  }
  if (t.family == TransportFamily::NET && where == Locality::Intra) {
    return {Severity::Error, "network inside one host (ND3003)"};
  }
  if (t.family == TransportFamily::SHM && where == Locality::Intra) {
    return {Severity::Warning, "host shared memory instead of P2P (ND3002)"};
  }
  if (t.family != TransportFamily::NET || where != Locality::Inter) return {};
  if (is_socket_network(t.net_name)) return {Severity::Error, "TCP sockets between hosts (ND3001)"};
  if (!is_rdma_network(t.net_name, options)) return {Severity::Warning, "not a known RDMA network (ND3005)"};
  if (!gdr) return {Severity::Warning, "no GPUDirect RDMA (ND3004)"};
  if (edge.send_transport != kNoTransport && edge.recv_transport != kNoTransport) {
    const Transport& s = model.transports[edge.send_transport];
    const Transport& r = model.transports[edge.recv_transport];
    if (s.family == TransportFamily::NET && r.family == TransportFamily::NET && s.net_dev >= 0 && r.net_dev >= 0) {
      uint32_t hs = comm.host_of(edge.sender);
      uint32_t hr = comm.host_of(edge.receiver);
      std::string a = nic_name(model, hs, s.net_name, s.net_dev);
      std::string b = nic_name(model, hr, r.net_name, r.net_dev);
      bool named = listed_nets(model, hs, s.net_name) && listed_nets(model, hr, r.net_name);
      if (named ? a != b : s.net_dev != r.net_dev) {
        return {Severity::Info, fmt::format("cross-rail {} -> {} (ND2101)", a, b)};
      }
    }
  }
  return {};
}

std::string display(std::string_view text, size_t max) {
  std::string s = printable(text);
  // Count code points, not bytes, so UTF-8 names are not cut in half.
  size_t points = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && ++points > max) {
      s.resize(i);
      s += "...";
      break;
    }
  }
  return s;
}

}  // namespace nd
