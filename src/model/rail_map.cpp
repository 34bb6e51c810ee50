#include "src/model/rail_map.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "src/model/channels.h"
#include "src/model/ring_graph.h"

namespace nd {

const HostNets* listed_nets(const JobModel& model, uint32_t host, const std::string& net_name) {
  if (const HostNets* n = model.nets_of(host, net_name)) return n;
  // The verbs plugins (IBext_v8, `NCCL RDMA Plugin v8`) print NCCL's `NET/IB : Using` list.
  if (net_family(net_name) == NetFamily::Verbs) return model.nets_of(host, "IB");
  return nullptr;
}

std::string nic_name(const JobModel& model, uint32_t host, const std::string& net_name, int dev) {
  if (const HostNets* n = listed_nets(model, host, net_name)) {
    for (const auto& d : n->devices) {
      if (d.index == dev) return d.name;
    }
  }
  return fmt::format("NET/{}/{}", net_name, dev);
}

namespace {

// By host id: some rank of the host, in a communicator across hosts, has no
// connection line on a channel the communicator set up, or the communicator
// has a rank on no known host (whose lines may be the missing ones).
std::vector<bool> hosts_seen_in_part(const JobModel& model) {
  std::vector<bool> partial(model.hosts.size());
  for (const auto& comm : model.comms) {
    uint32_t first_host = kNoHost;
    bool across = false;
    for (const auto& r : comm.ranks) {
      if (r.host == kNoHost) continue;
      if (first_host == kNoHost) first_host = r.host;
      across |= r.host != first_host;
    }
    std::vector<uint16_t> channels = across ? channels_set_up(comm).list() : std::vector<uint16_t>{};
    if (channels.empty()) continue;
    std::vector<uint16_t> slot(size_t{channels.back()} + 1, 0);
    for (size_t k = 0; k < channels.size(); ++k) slot[channels[k]] = static_cast<uint16_t>(k);
    const size_t nch = channels.size();
    std::vector<bool> said(comm.ranks.size() * nch);
    for (const auto& e : comm.edges) {
      if (e.send_transport != kNoTransport && e.sender < comm.ranks.size()) said[e.sender * nch + slot[e.channel]] = true;
      if (e.recv_transport != kNoTransport && e.receiver < comm.ranks.size()) {
        said[e.receiver * nch + slot[e.channel]] = true;
      }
    }
    bool placed = comm.ranks.size() >= comm.size() &&
                  std::none_of(comm.ranks.begin(), comm.ranks.end(), [](const RankInfo& r) { return r.host == kNoHost; });
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      uint32_t h = comm.ranks[r].host;
      if (h == kNoHost || partial[h]) continue;
      bool whole = placed;
      for (size_t k = 0; whole && k < nch; ++k) whole = said[r * nch + k];
      if (!whole) partial[h] = true;
    }
  }
  return partial;
}

}  // namespace

std::vector<HostRails> build_rail_map(const JobModel& model, bool unplaced_peers) {
  // Each NET transport's (net, dev) as a number that sorts as the pair does,
  // so that the lookups below compare integers, not strings.
  std::vector<std::pair<std::string_view, int>> rails;
  for (const Transport& t : model.transports) {
    if (t.family == TransportFamily::NET && t.net_dev >= 0) rails.emplace_back(t.net_name, t.net_dev);
  }
  std::sort(rails.begin(), rails.end());
  rails.erase(std::unique(rails.begin(), rails.end()), rails.end());
  constexpr uint32_t kNoRail = UINT32_MAX;
  std::vector<uint32_t> rail_of(model.transports.size(), kNoRail);
  for (size_t i = 0; i < model.transports.size(); ++i) {
    const Transport& t = model.transports[i];
    if (t.family != TransportFamily::NET || t.net_dev < 0) continue;
    auto it = std::lower_bound(rails.begin(), rails.end(), std::pair<std::string_view, int>(t.net_name, t.net_dev));
    rail_of[i] = static_cast<uint32_t>(it - rails.begin());
  }
  using Key = std::pair<int, uint32_t>;  // gpu, rail: the order of gpu, net, dev
  std::map<uint32_t, std::map<Key, RailUse>> per_host;
  auto note = [&](const Communicator& comm, uint32_t rank, uint16_t transport, LineRef line) {
    if (transport == kNoTransport || transport >= model.transports.size() || rail_of[transport] == kNoRail) return;
    const Transport& t = model.transports[transport];
    uint32_t host = comm.host_of(rank);
    if (host == kNoHost) return;
    const RankInfo& info = comm.ranks[rank];
    int gpu = info.nvml_dev >= 0 ? info.nvml_dev : info.cuda_dev;
    RailUse& use = per_host[host][Key{gpu, rail_of[transport]}];
    if (use.connections == 0) {
      use.gpu = gpu;
      use.bus_id = info.bus_id;
      use.net = t.net_name;
      use.dev = t.net_dev;
      use.nic = nic_name(model, host, t.net_name, t.net_dev);
    }
    ++use.connections;
    use.pxn |= t.proxy_rank >= 0;
    if (use.lines.size() < 4) use.lines.push_back(line);
  };
  // A NET link whose peer the log cannot place (one host's output) crosses
  // hosts, as the transport rules count it, unless the log shows NET inside
  // a host.
  auto is_net = [&](uint16_t t) {
    return t < model.transports.size() && model.transports[t].family == TransportFamily::NET;
  };
  bool count_unplaced = unplaced_peers;
  for (const auto& comm : model.comms) {
    for (const auto& e : comm.edges) {
      if (!count_unplaced) break;
      count_unplaced = !((is_net(e.send_transport) || is_net(e.recv_transport)) &&
                         locality(comm, e.sender, e.receiver) == Locality::Intra);
    }
  }
  for (const auto& comm : model.comms) {
    for (const auto& e : comm.edges) {
      Locality where = locality(comm, e.sender, e.receiver);
      if (where != Locality::Inter && !(where == Locality::Unknown && count_unplaced)) continue;
      note(comm, e.sender, e.send_transport, e.send_line);
      note(comm, e.receiver, e.recv_transport, e.recv_line);
    }
  }
  std::vector<HostRails> out;
  std::vector<bool> partial = hosts_seen_in_part(model);
  for (auto& [host, uses] : per_host) {
    HostRails h;
    h.host = host;
    for (auto& [key, use] : uses) h.uses.push_back(std::move(use));
    // The data network is the one most connections use.
    std::map<std::string, uint64_t> by_net;
    for (const auto& u : h.uses) by_net[u.net] += u.connections;
    auto top = std::max_element(by_net.begin(), by_net.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    h.listed = listed_nets(model, host, top->first);
    h.whole = host < partial.size() && !partial[host];
    if (h.whole && h.listed && !top->first.starts_with("Socket")) {
      for (const auto& d : h.listed->devices) {
        bool used = std::any_of(h.uses.begin(), h.uses.end(),
                                [&](const RailUse& u) { return u.net == top->first && u.dev == d.index; });
        if (!used) h.idle_devs.push_back(d.index);
      }
    }
    out.push_back(std::move(h));
  }
  std::sort(out.begin(), out.end(), [&](const HostRails& a, const HostRails& b) {
    return model.host_name(a.host) < model.host_name(b.host);
  });
  return out;
}

}  // namespace nd
