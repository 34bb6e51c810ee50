#include "src/probe/probe_text.h"

#include <fmt/format.h>

#include "src/util/text.h"
#include "src/probe/ib_attrs.h"

namespace nd {
namespace {

std::string yes_no(std::optional<bool> v) { return !v ? "unknown" : *v ? "yes" : "no"; }

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string hex_or_dash(std::optional<uint32_t> v) { return v ? fmt::format("{:#x}", *v) : "-"; }

std::string link_str(const PciLink& l) {
  if (l.current_speed.empty() && !l.current_width) return "-";
  std::string s = fmt::format("{} x{}", or_dash(l.current_speed), l.current_width ? std::to_string(*l.current_width) : "?");
  if (l.max_speed != l.current_speed || l.max_width != l.current_width) {
    s += fmt::format(" (max {} x{})", or_dash(l.max_speed), l.max_width ? std::to_string(*l.max_width) : "?");
  }
  return s;
}

}  // namespace

std::string memlock_str(std::optional<uint64_t> bytes) {
  if (!bytes) return "unknown";
  if (*bytes == kMemlockUnlimited) return "unlimited";
  if (*bytes >= (1ull << 30) && *bytes % (1ull << 30) == 0) return fmt::format("{} GiB", *bytes >> 30);
  if (*bytes >= (1ull << 20) && *bytes % (1ull << 20) == 0) return fmt::format("{} MiB", *bytes >> 20);
  if (*bytes >= 1024 && *bytes % 1024 == 0) return fmt::format("{} KiB", *bytes >> 10);
  return fmt::format("{} bytes", *bytes);
}

std::string rate_str(const PortInfo& p) {
  if (!p.rate_error.empty()) return fmt::format("unreadable ({})", p.rate_error);
  if (!p.rate_text.empty()) return p.rate_text;
  return "unknown";
}

std::string render_probe_text(const NodeSnapshot& n) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  line(fmt::format("host {}{}", or_dash(n.host.host),
                   n.host.rank ? fmt::format(" (rank {} from {})", *n.host.rank, n.host.rank_source) : ""));
  // A capture's verbs.json is read back from anywhere: print it safely.
  line(fmt::format("libibverbs: {}{}", printable(n.verbs.status),
                   n.verbs.message.empty() ? "" : " - " + printable(n.verbs.message)));
  line(fmt::format("memlock: {}  CAP_IPC_LOCK: {}  kernel: {}  nvidia driver: {}", memlock_str(n.host.memlock_soft),
                   yes_no(n.host.cap_ipc_lock), or_dash(n.host.kernel), or_dash(n.host.nvidia_driver)));
  std::string markers;
  for (const auto& m : n.gdr.peermem_markers) markers += (markers.empty() ? "" : ", ") + m;
  line(fmt::format("GPUDirect RDMA: {}  peermem: {}  dma-buf: {}  peer-memory API: {}",
                   n.gdr.ready() ? "ready" : "not ready", markers.empty() ? "none" : markers,
                   n.gdr.dmabuf ? (*n.gdr.dmabuf ? "yes" : "no") : "untested", yes_no(n.gdr.peer_memory_api)));
  std::string units;
  for (const auto& u : n.iommu.units) units += (units.empty() ? "" : ", ") + u;
  line(fmt::format("IOMMU: {}", units.empty() ? "none" : units));

  line(fmt::format("\nRDMA devices: {}", n.hcas.size()));
  for (const auto& h : n.hcas) {
    std::string nets;
    for (const auto& d : h.netdevs) nets += (nets.empty() ? "" : ",") + d;
    line(fmt::format("  {}  pci {}  numa {}  netdev {}  fw {}  {}  guid {}  verbs {}", h.name, or_dash(h.pci_bdf),
                     h.numa_node, or_dash(nets), or_dash(h.fw_ver), or_dash(h.hca_type), or_dash(h.node_guid),
                     or_dash(h.verbs_state)));
    line(fmt::format("    pcie {}", link_str(h.link)));
    for (const auto& p : h.ports) {
      int v2 = 0;
      for (const auto& g : p.gids) v2 += roce_version(g.type) == 2;
      std::string pk;
      for (const auto& k : p.pkeys) pk += (pk.empty() ? "" : ",") + k;
      line(fmt::format("    port {}: {} {}  {}  {}  lid {} sm_lid {}  mtu {}  gids {} (RoCE v2: {})  pkeys {}", p.port,
                       port_state_str(p.state), phys_state_str(p.phys_state), rate_str(p), p.link_layer,
                       hex_or_dash(p.lid), hex_or_dash(p.sm_lid), p.active_mtu ? std::to_string(*p.active_mtu) : "-",
                       p.gids.size(), v2, or_dash(pk)));
      std::string nz;
      for (const auto& [name, value] : p.counters) {
        if (value != 0) nz += fmt::format(" {}={}{}", name, value, counter_saturated(value) ? "+" : "");
      }
      if (!nz.empty()) line("      error counters:" + nz);
    }
  }

  line(fmt::format("\nGPUs: {}", n.gpus.size()));
  for (const auto& g : n.gpus) {
    line(fmt::format("  {}  {}  numa {}  pcie {}  nearest NIC {}", g.pci_bdf, or_dash(g.device_id), g.numa_node,
                     link_str(g.link),
                     g.nearest_hca.empty() ? "none" : fmt::format("{} ({})", g.nearest_hca, g.nearest_path)));
  }
  bool header = false;
  for (const auto& p : n.paths) {
    for (const auto& b : p.bridges) {
      if (!header) {
        line("\nACS on GPU-NIC paths:");
        header = true;
      }
      line(fmt::format("  {} -> {}  bridge {}: {}{}", p.gpu, p.hca, b.bdf, b.state,
                       b.detail == b.state ? "" : " (" + b.detail + ")"));
    }
  }
  if (!n.issues.empty()) {
    line("\nUnreadable or unexpected sysfs files:");
    for (const auto& i : n.issues) line(fmt::format("  {}: {}", i.path, i.error));
  }
  return out;
}

}  // namespace nd
