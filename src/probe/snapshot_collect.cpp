#include "src/probe/snapshot_collect.h"

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/pci_topology.h"
#include "src/util/numbers.h"

namespace nd {
namespace {

constexpr const char* kIbClass = "class/infiniband";
constexpr const char* kVerbsClass = "class/infiniband_verbs";
constexpr const char* kPciDevices = "bus/pci/devices";
constexpr const char* kNvidiaVendor = "0x10de";

// Collects attributes and records why the ones that failed did.
class Reader {
 public:
  Reader(const SysfsReader& s, std::vector<ReadIssue>& issues) : s_(s), issues_(issues) {}

  // Missing is normal (drivers differ); other failures are issues.
  std::string attr(const std::string& path) {
    ReadResult r = s_.read_attr(path);
    if (r.ok()) return r.value;
    if (r.error != ENOENT) issues_.push_back({path, errno_name(r.error)});
    return "";
  }
  ReadResult raw(const std::string& path) { return s_.read_attr(path); }
  void garbage(const std::string& path, const std::string& value) {
    issues_.push_back({path, fmt::format("unexpected contents: '{}'", value.substr(0, 60))});
  }
  std::optional<uint32_t> number(const std::string& path, bool hex) {
    std::string v = attr(path);
    if (v.empty()) return std::nullopt;
    auto n = hex ? parse_hex64(v) : parse_u64(v);
    if (!n || *n > UINT32_MAX) {
      garbage(path, v);
      return std::nullopt;
    }
    return static_cast<uint32_t>(*n);
  }
  int numa(const std::string& dev_dir) {
    std::string v = attr(dev_dir + "/numa_node");
    if (v.empty()) return -1;
    auto n = parse_i64(v);
    if (!n || *n < -1 || *n > 4096) {
      garbage(dev_dir + "/numa_node", v);
      return -1;
    }
    return static_cast<int>(*n);
  }
  PciLink link(const std::string& dev_dir) {
    PciLink l;
    l.current_speed = attr(dev_dir + "/current_link_speed");
    l.max_speed = attr(dev_dir + "/max_link_speed");
    l.current_width = number(dev_dir + "/current_link_width", false);
    l.max_width = number(dev_dir + "/max_link_width", false);
    return l;
  }
  const SysfsReader& sysfs() const { return s_; }

 private:
  const SysfsReader& s_;
  std::vector<ReadIssue>& issues_;
};

PortInfo read_port(Reader& r, const std::string& dir, uint32_t port) {
  PortInfo p;
  p.port = port;
  for (auto [file, out] : {std::pair{"state", &p.state}, std::pair{"phys_state", &p.phys_state}}) {
    std::string v = r.attr(dir + "/" + file);
    if (v.empty()) continue;
    if (auto s = parse_state_line(v)) {
      *out = *s;
    } else {
      r.garbage(dir + "/" + file, v);
    }
  }
  // rate fails with EINVAL when the port has no active width (cable out,
  // Polling): that is a fact about the port, not a probe problem.
  ReadResult rate = r.raw(dir + "/rate");
  if (rate.ok()) {
    p.rate_text = rate.value;
    if (auto lr = parse_rate(rate.value)) {
      p.rate_gbps = lr->gbps;
      p.width = lr->width;
      p.speed = lr->speed;
    } else {
      r.garbage(dir + "/rate", rate.value);
    }
  } else if (rate.error != ENOENT) {
    p.rate_error = errno_name(rate.error);
  }
  p.link_layer = link_layer_key(r.attr(dir + "/link_layer"));
  p.lid = r.number(dir + "/lid", true);
  p.sm_lid = r.number(dir + "/sm_lid", true);

  const SysfsReader& s = r.sysfs();
  for (const auto& idx : s.list_dir(dir + "/gids")) {
    auto i = parse_u32(idx);
    if (!i) continue;
    std::string gid = r.attr(dir + "/gids/" + idx);
    if (gid.empty() || gid_is_zero(gid)) continue;
    GidInfo g;
    g.index = *i;
    g.gid = gid;
    // types/<i> and ndevs/<i> fail with EINVAL for slots this namespace does
    // not own and for IB ports: expected, so not an issue.
    ReadResult t = s.read_attr(dir + "/gid_attrs/types/" + idx);
    if (t.ok()) g.type = t.value;
    ReadResult n = s.read_attr(dir + "/gid_attrs/ndevs/" + idx);
    if (n.ok()) g.ndev = n.value;
    p.gids.push_back(std::move(g));
  }
  std::sort(p.gids.begin(), p.gids.end(), [](const GidInfo& a, const GidInfo& b) { return a.index < b.index; });
  auto pkey_names = s.list_dir(dir + "/pkeys");
  std::sort(pkey_names.begin(), pkey_names.end(), [](const std::string& a, const std::string& b) {
    return parse_u32(a).value_or(0) < parse_u32(b).value_or(0);
  });
  for (const auto& idx : pkey_names) {
    std::string v = r.attr(dir + "/pkeys/" + idx);
    if (!v.empty() && v != "0x0000") p.pkeys.push_back(v);
  }
  for (const auto& name : error_counter_names()) {
    std::string path = dir + "/counters/" + name;
    std::string v = r.attr(path);
    if (v.empty() || v.starts_with("N/A")) continue;  // no PMA
    if (auto n = parse_u64(v)) {
      p.counters[name] = *n;
    } else {
      r.garbage(path, v);
    }
  }
  return p;
}

std::string basename_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

HcaInfo read_hca(Reader& r, const std::string& name) {
  const SysfsReader& s = r.sysfs();
  HcaInfo h;
  h.name = name;
  std::string dir = std::string(kIbClass) + "/" + name;
  h.node_type = r.attr(dir + "/node_type");
  h.fw_ver = r.attr(dir + "/fw_ver");
  h.node_guid = r.attr(dir + "/node_guid");
  h.sys_image_guid = r.attr(dir + "/sys_image_guid");
  h.hca_type = r.attr(dir + "/hca_type");
  h.board_id = r.attr(dir + "/board_id");
  if (auto real = s.realpath(dir + "/device")) {
    h.pci_path = *real;
    h.pci_bdf = basename_of(*real);
    if (!is_bdf(h.pci_bdf)) h.pci_bdf.clear();  // soft devices (rxe) have no PCI function
  }
  if (!h.pci_bdf.empty()) {
    std::string pci = std::string(kPciDevices) + "/" + h.pci_bdf;
    h.numa_node = r.numa(pci);
    h.link = r.link(pci);
    h.netdevs = s.list_dir(pci + "/net");
  }
  for (const auto& port : s.list_dir(dir + "/ports")) {
    if (auto n = parse_u32(port)) h.ports.push_back(read_port(r, dir + "/ports/" + port, *n));
  }
  std::sort(h.ports.begin(), h.ports.end(), [](const PortInfo& a, const PortInfo& b) { return a.port < b.port; });
  return h;
}

void apply_verbs(NodeSnapshot& n, const VerbsSource& verbs) {
  if (verbs.probe == nullptr) {
    n.verbs.status = verbs.status;
    n.verbs.message = verbs.message;
    for (auto& h : n.hcas) h.verbs_state = "not loaded";
    return;
  }
  int err = verbs.probe->list_devices(n.verbs.devices);
  if (err == ENOSYS) {
    // libibverbs says ENOSYS when the kernel has no ib_uverbs at all.
    n.verbs.status = "no-devices";
    n.verbs.message = "no RDMA devices (no ib_uverbs in the kernel)";
    for (auto& h : n.hcas) h.verbs_state = "not listed";
    return;
  }
  if (err != 0) {
    n.verbs.status = "error";
    n.verbs.message = fmt::format("ibv_get_device_list failed: {}", errno_name(err));
    for (auto& h : n.hcas) h.verbs_state = "not listed";
    return;
  }
  n.verbs.status = n.verbs.devices.empty() ? "no-devices" : "ok";
  n.verbs.message = n.verbs.devices.empty() ? "no RDMA devices" : verbs.message;
  for (auto& h : n.hcas) {
    if (std::find(n.verbs.devices.begin(), n.verbs.devices.end(), h.name) == n.verbs.devices.end()) {
      h.verbs_state = "not listed";
      continue;
    }
    VerbsDevice d;
    if (int e = verbs.probe->query_device(h.name, d); e != 0) {
      h.verbs_state = "open failed: " + errno_name(e);
      continue;
    }
    h.verbs_state = "ok";
    if (d.dmabuf >= 0) n.gdr.dmabuf = n.gdr.dmabuf.value_or(false) || d.dmabuf == 1;
    for (auto& p : h.ports) {
      for (const auto& vp : d.ports) {
        if (vp.port == p.port && verbs_mtu_bytes(vp.active_mtu) != 0) p.active_mtu = verbs_mtu_bytes(vp.active_mtu);
      }
    }
  }
}

void read_gpus(Reader& r, NodeSnapshot& n) {
  const SysfsReader& s = r.sysfs();
  for (const auto& bdf : s.list_dir(kPciDevices)) {
    std::string dir = std::string(kPciDevices) + "/" + bdf;
    ReadResult vendor = s.read_attr(dir + "/vendor");
    if (!vendor.ok() || vendor.value != kNvidiaVendor) continue;
    std::string cls = r.attr(dir + "/class");
    // 0x03xxxx: display/3D controller; NVSwitches (0x0680xx) share the vendor.
    if (!cls.starts_with("0x03")) continue;
    GpuInfo g;
    g.pci_bdf = bdf;
    g.device_id = r.attr(dir + "/device");
    g.pci_path = s.realpath(dir).value_or("");
    g.numa_node = r.numa(dir);
    g.link = r.link(dir);
    n.gpus.push_back(std::move(g));
  }
}

void compute_paths(Reader& r, NodeSnapshot& n) {
  const SysfsReader& s = r.sysfs();
  std::map<std::string, AcsInfo> acs_cache;
  auto acs_of = [&](const std::string& bdf) -> const AcsInfo& {
    auto it = acs_cache.find(bdf);
    if (it != acs_cache.end()) return it->second;
    ReadResult cfg = s.read(std::string(kPciDevices) + "/" + bdf + "/config");
    AcsInfo info;
    if (cfg.ok()) {
      info = acs_from_config(cfg.value);
    } else {
      info.state = AcsState::Unknown;
      info.detail = "config unreadable: " + errno_name(cfg.error);
    }
    return acs_cache.emplace(bdf, info).first->second;
  };
  for (auto& g : n.gpus) {
    auto gc = parse_pci_path(g.pci_path);
    PathType best = PathType::Unknown;
    for (const auto& h : n.hcas) {
      auto hc = parse_pci_path(h.pci_path);
      if (!gc || !hc) continue;
      GpuNicPath path;
      path.gpu = g.pci_bdf;
      path.hca = h.name;
      PathType t = classify_path(*gc, g.numa_node, *hc, h.numa_node);
      path.type = path_type_str(t);
      // ACS only matters where GDR would be used (PIX/PXB); across the CPU
      // the traffic goes through the root complex anyway.
      if (t == PathType::PIX || t == PathType::PXB) {
        for (const auto& bdf : bridges_between(*gc, *hc)) {
          const AcsInfo& a = acs_of(bdf);
          path.bridges.push_back({bdf, acs_state_str(a.state), a.detail});
        }
      }
      if (best == PathType::Unknown || t < best) {
        best = t;
        g.nearest_hca = h.name;
        g.nearest_path = path.type;
      }
      n.paths.push_back(std::move(path));
    }
  }
}

void read_gdr_and_iommu(Reader& r, NodeSnapshot& n) {
  const SysfsReader& s = r.sysfs();
  // The markers NCCL itself checks (net_ib gdr.cc).
  for (const char* marker : {"module/nvidia_peermem/version", "kernel/mm/memory_peers/nv_mem/version",
                             "kernel/mm/memory_peers/nv_mem_nc/version"}) {
    if (s.exists(marker)) n.gdr.peermem_markers.emplace_back(marker);
  }
  n.iommu.units = s.list_dir("class/iommu");
  auto group_type = [&](const std::string& bdf) {
    auto group = s.realpath(std::string(kPciDevices) + "/" + bdf + "/iommu_group");
    if (!group) return;
    std::string t = r.attr(*group + "/type");
    if (!t.empty()) n.iommu.group_types[bdf] = t;
  };
  for (const auto& g : n.gpus) group_type(g.pci_bdf);
  for (const auto& h : n.hcas) {
    if (!h.pci_bdf.empty()) group_type(h.pci_bdf);
  }
}

// mlx5_2 before mlx5_10: the order people expect, and a stable one.
bool natural_less(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    size_t i = s.size();
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') --i;
    uint64_t n = 0;
    for (size_t k = i; k < s.size() && k < i + 18; ++k) n = n * 10 + static_cast<uint64_t>(s[k] - '0');
    return std::pair{s.substr(0, i), i == s.size() ? UINT64_MAX : n};
  };
  auto pa = split(a), pb = split(b);
  return pa != pb ? pa < pb : a < b;
}

}  // namespace

const std::vector<std::string>& error_counter_names() {
  static const std::vector<std::string> kNames = {
      "excessive_buffer_overrun_errors", "link_downed", "link_error_recovery", "local_link_integrity_errors",
      "port_rcv_errors", "port_rcv_remote_physical_errors", "port_xmit_discards", "symbol_error",
  };
  return kNames;
}

NodeSnapshot collect_snapshot(const SysfsReader& sysfs, const HostFacts& facts, const VerbsSource& verbs) {
  NodeSnapshot n;
  Reader r(sysfs, n.issues);
  n.host = facts.host;
  n.gdr.peer_memory_api = facts.peer_memory_api;
  n.host.nvidia_driver = r.attr("module/nvidia/version");
  n.uverbs_abi = sysfs.exists(std::string(kVerbsClass) + "/abi_version");
  auto names = sysfs.list_dir(kIbClass);
  std::sort(names.begin(), names.end(), natural_less);
  for (const auto& name : names) n.hcas.push_back(read_hca(r, name));
  // uverbsN/ibdev says which devices have a verbs character device.
  for (const auto& u : sysfs.list_dir(kVerbsClass)) {
    if (!u.starts_with("uverbs")) continue;
    std::string ibdev = r.attr(std::string(kVerbsClass) + "/" + u + "/ibdev");
    for (auto& h : n.hcas) {
      if (h.name == ibdev) h.has_uverbs = true;
    }
  }
  apply_verbs(n, verbs);
  read_gpus(r, n);
  compute_paths(r, n);
  read_gdr_and_iommu(r, n);
  return n;
}

}  // namespace nd
