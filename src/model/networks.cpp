#include "src/model/networks.h"

#include <algorithm>
#include <set>

namespace nd {
namespace {

// The link layer of the IB device a link used: by its index in the host's
// `NET/IB : Using` list, else the one layer all of the host's devices (or, for
// a host that printed no list, the whole job's) share.
std::string_view link_layer(const JobModel& m, uint32_t host, int net_dev) {
  auto uniform = [](const HostNets& nets) -> std::string_view {
    std::string_view layer;
    for (const auto& d : nets.devices) {
      if (!layer.empty() && d.link_layer != layer) return {};
      layer = d.link_layer;
    }
    return layer;
  };
  if (const HostNets* nets = m.nets_of(host, "IB")) {
    for (const auto& d : nets->devices) {
      if (net_dev >= 0 && d.index == net_dev) return d.link_layer;
    }
    return uniform(*nets);
  }
  std::string_view layer;
  for (const auto& nets : m.host_nets) {
    if (nets.net != "IB") continue;
    std::string_view l = uniform(nets);
    if (l.empty() || (!layer.empty() && l != layer)) return {};
    layer = l;
  }
  return layer;
}

// aws-ofi-nccl's provider on `host` (or anywhere, when the host printed none).
std::string_view ofi_provider(const JobModel& m, uint32_t host) {
  std::string_view any;
  for (const auto& n : m.net_notes) {
    if (n.note != NetNote::OfiProvider) continue;
    if (n.host == host) return n.name;
    if (any.empty()) any = n.name;
  }
  return any;
}

}  // namespace

std::string network_family(const JobModel& m, uint32_t host, std::string_view net_name, int net_dev) {
  switch (net_family(net_name)) {
    case NetFamily::Socket:
      return "Socket";
    case NetFamily::Verbs:
      // UNSPECIFIED (2.26+) and an unknown layer read as IB, the verbs default.
      return link_layer(m, host, net_dev) == "RoCE" ? "RoCE" : "IB";
    case NetFamily::Libfabric: {
      // aws-ofi-nccl runs on EFA unless its provider line says otherwise (cxi, tcp, verbs).
      std::string_view provider = ofi_provider(m, host);
      return provider.empty() || provider == "efa" ? "EFA" : "Libfabric";
    }
    case NetFamily::Unknown:
      break;
  }
  return std::string(net_name);
}

std::vector<ChosenNetwork> chosen_networks(const JobModel& m) {
  std::vector<ChosenNetwork> all;
  for (const auto& [name, observations] : m.using_network) {
    for (const auto& o : observations) all.push_back({name, o.host, o.line});
  }
  for (const auto& n : m.net_notes) {
    if (n.note == NetNote::PluginAssigned) all.push_back({n.name, n.host, n.line});
  }
  std::stable_sort(all.begin(), all.end(), [](const ChosenNetwork& a, const ChosenNetwork& b) { return a.line < b.line; });
  std::vector<ChosenNetwork> out;
  std::set<std::pair<uint32_t, std::string>> seen;
  for (auto& c : all) {
    if (seen.emplace(c.host, c.name).second) out.push_back(std::move(c));
  }
  return out;
}

std::vector<ChosenNetwork> ib_at_work(const JobModel& m) {
  std::vector<ChosenNetwork> out;
  std::set<uint32_t> seen;
  for (const auto& n : m.net_notes) {
    if (n.note == NetNote::IbTraffic && seen.insert(n.host).second) out.push_back({"IB", n.host, n.line});
  }
  return out;
}

}  // namespace nd
