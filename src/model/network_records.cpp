// What the lines say about networks: NCCL's choice, each host's devices and
// addresses, plugin and verbs notes, NVLS.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "src/model/model_builder.h"
#include "src/util/text.h"

namespace nd {
namespace {

// Bytes of a net note's name kept: a plugin's dlerror() can be long.
constexpr size_t kMaxNoteName = 512;

}  // namespace

void ModelBuilder::on(const At& at, const UsingNetworkEvent& e) {
  remember_text(0, at.ref, at.raw);
  observe(model_.using_network, e.name, at.host, at.pid, at.ref);
  mark_init_phase(at.process, at.ref, at.raw);
}

void ModelBuilder::on(const At& at, const NetUsingEvent& e) {
  uint32_t host = at.host;
  if (host != kNoHost && e.net == "Socket" && !e.addresses.empty()) host = host_by_address(at, e.first_interface, e.addresses.front());
  remember_text(0, at.ref, at.raw);
  observe(model_.net_using, e.net, host, at.pid, at.ref);
  add_host_nets(host, e, at.ref);
  if (e.net == "IB") {
    uint32_t& nics = model_.nics_per_host[host];
    nics = std::max(nics, e.device_count);
  }
  learn_addresses(e.addresses, host);
  mark_init_phase(at.process, at.ref, at.raw);
}

void ModelBuilder::on(const At& at, const NetNoteEvent& e) { add_net_note(at, e); }

void ModelBuilder::on(const At& at, const BootstrapEvent& e) {
  uint32_t host = at.host;
  if (host != kNoHost && !e.addresses.empty()) host = host_by_address(at, e.first_interface, e.addresses.front());
  learn_addresses(e.addresses, host);
  if (host != kNoHost && !e.address.empty() && bootstrap_hosts_.insert(host).second) {
    model_.bootstraps.push_back({host, valid_utf8(e.interface), valid_utf8(e.address), at.ref});
    remember_text(0, at.ref, at.raw);
  }
}

void ModelBuilder::on(const At&, const NvlsChannelsEvent& e) {
  model_.max_nvls_channels = std::max(model_.max_nvls_channels, e.channels);
}

void ModelBuilder::on(const At&, const NvlsConnectedEvent&) { model_.nvls_connected = true; }

namespace {

// The devices as NCCL numbers them: NICs it fused into one (2.21-2.23 print
// `[0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB}`, one index for both) become one
// device named as NCCL names it, `mlx5_0+mlx5_1`.
std::vector<NetDevice> listed_devices(const NetUsingEvent& e) {
  std::vector<NetDevice> out;
  for (const auto& d : e.devices) {
    if (!out.empty() && d.index >= 0 && out.back().index == d.index) {
      out.back().name += "+" + valid_utf8(d.name);
      continue;
    }
    out.push_back({d.index, valid_utf8(d.name), d.port, valid_utf8(d.link_layer), valid_utf8(d.address)});
  }
  return out;
}

}  // namespace

void ModelBuilder::add_host_nets(uint32_t host, const NetUsingEvent& e, LineRef ref) {
  if (e.devices.empty() || model_.host_nets.size() >= JobModel::kMaxHostNets) return;
  auto [it, inserted] = host_net_index_.try_emplace({host, std::string(e.net)}, model_.host_nets.size());
  // Every rank of a host prints the list: only the first one is kept.
  if (!inserted && (host != kNoHost || it->second == SIZE_MAX)) return;
  std::vector<NetDevice> devices = listed_devices(e);
  if (!inserted) {
    // Lists printed without a host that differ are several hosts': none of
    // them can be read for a line without a host. The entry stays, as a
    // tombstone (SIZE_MAX), so that later ones are refused too.
    const HostNets& kept = model_.host_nets[it->second];
    bool same = kept.devices.size() == devices.size();
    for (size_t i = 0; same && i < devices.size(); ++i) {
      same = kept.devices[i].name == devices[i].name && kept.devices[i].address == devices[i].address;
    }
    if (same) return;
    model_.host_nets.erase(model_.host_nets.begin() + static_cast<std::ptrdiff_t>(it->second));
    for (auto& [key, index] : host_net_index_) {
      if (index != SIZE_MAX && index > it->second) --index;
    }
    it->second = SIZE_MAX;
    return;
  }
  model_.host_nets.push_back({host, valid_utf8(e.net), std::move(devices), ref});
}

void ModelBuilder::add_net_note(const At& at, const NetNoteEvent& e) {
  if (model_.net_notes.size() >= JobModel::kMaxNetNotes) return;
  std::string name = valid_utf8(e.name.substr(0, kMaxNoteName));
  std::string call = valid_utf8(e.call);
  if (!net_note_keys_.emplace(at.host, static_cast<int>(e.note), name, e.status, call).second) return;
  remember_text(0, at.ref, at.raw);
  model_.net_notes.push_back({e.note, at.host, at.pid, std::move(name), e.version, e.status, std::move(call), at.ref});
}

// Every address a host's lines name as its own maps to that host.
void ModelBuilder::learn_addresses(const std::vector<std::string_view>& addresses, uint32_t host) {
  for (std::string_view ip : addresses) {
    if (model_.ip_hosts.size() < JobModel::kMaxIpHosts) model_.ip_hosts.emplace(std::string(ip), host);
  }
}

}  // namespace nd
