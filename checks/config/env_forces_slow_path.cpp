#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/config/config_rules.h"
#include "checks/config/evidence.h"
#include "checks/transport/edge_groups.h"
#include "src/model/ring_graph.h"

namespace nd {
namespace {

struct Echo {
  std::string name;
  std::string value;
  std::set<uint32_t> hosts;
  std::vector<LineRef> lines;
};

bool is_true(std::string_view v) { return !v.empty() && v != "0"; }

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// What the connection lines show, so a setting can name the finding it causes.
struct Consequences {
  bool inter_socket = false;  // NET/Socket between hosts, or `Using network Socket`
  bool intra_shm = false;
  bool intra_net = false;
  bool inter_rdma_no_gdr = false;
};

Consequences consequences(const JobModel& m, const CheckOptions& options) {
  Consequences c;
  for_each_edge(m, [&](const EdgeView& e) {
    if (e.transport.family == TransportFamily::SHM && e.locality == Locality::Intra) c.intra_shm = true;
    if (e.transport.family != TransportFamily::NET) return;
    if (e.locality == Locality::Intra) {
      c.intra_net = true;
    } else if (is_socket_network(e.transport.net_name)) {
      c.inter_socket = true;
    } else if (is_rdma_network(e.transport.net_name, options) && !e.gdr) {
      c.inter_rdma_no_gdr = true;
    }
  });
  if (m.using_network.count("Socket") && m.hosts.size() >= 2) c.inter_socket = true;
  return c;
}

// NCCL_SOCKET_IFNAME: `^a,b` excludes, `=a` matches exactly, otherwise prefixes.
std::string_view bad_interface(std::string_view value) {
  if (value.starts_with("^")) return {};
  if (value.starts_with("=")) value.remove_prefix(1);
  while (!value.empty()) {
    size_t comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    if (item.starts_with("lo") || item.starts_with("docker")) return item;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return {};
}

// Path names below the default GDR cut-off (about PXB): GDR only when the NIC
// sits on the GPU's own PCIe switch, or never. 2.4/2.5 echo numbers: 0 LOC, 1 PIX.
bool low_gdr_level(std::string_view v) {
  return v == "LOC" || v == "NVL" || v == "NVB" || v == "C2C" || v == "PIX" || v == "0" || v == "1";
}

}  // namespace

void EnvForcesSlowPath::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  std::map<std::pair<std::string, std::string>, Echo> echoes;
  for (const auto& s : m.env) {
    auto& e = echoes[{s.name, s.value}];
    e.name = s.name;
    e.value = s.value;
    e.hosts.insert(s.host);
    e.lines.push_back(s.line);
  }
  auto find = [&](std::string_view name) -> const Echo* {
    for (const auto& [key, e] : echoes) {
      if (key.first == name) return &e;
    }
    return nullptr;
  };
  const bool multi = multi_node(m);
  const Consequences c = consequences(m, ctx.options);
  const std::string job = fmt::format("{}-host job", m.hosts.size());
  auto emit = [&](const Echo& e, Severity sev, std::string message, std::vector<std::string> related) {
    Finding f = make_finding(kInfo, fmt::format("{}={} ({}): {}", e.name, e.value,
                                                fmt::format("echoed by {}", [&] {
                                                  auto names = host_names(m, e.hosts);
                                                  return names.empty() ? std::string("the job")
                                                                       : fmt::format("{}", fmt::join(names, ", "));
                                                }()),
                                                message));
    f.severity = sev;
    f.hosts = host_names(m, e.hosts);
    for (LineRef ref : e.lines) cite(m, f, ref, ctx.options.max_evidence);
    f.related = std::move(related);
    out.add(std::move(f));
  };

  const Echo* ib_disable = find("NCCL_IB_DISABLE");
  if (ib_disable && is_true(ib_disable->value) && multi) {
    emit(*ib_disable, c.inter_socket ? Severity::Error : Severity::Warning,
         c.inter_socket ? "it turns off NCCL's InfiniBand/RoCE transport, which is why inter-node traffic goes over TCP "
                          "sockets (inter-node-socket, ND3001)"
                        : fmt::format("it turns off NCCL's InfiniBand/RoCE transport; on this {} inter-node traffic "
                                      "falls back to TCP sockets unless a network plugin takes over",
                                      job),
         {"ND3001"});
  }
  const Echo* net = find("NCCL_NET");
  if (net && lower(net->value) == "socket" && multi) {
    emit(*net, c.inter_socket ? Severity::Error : Severity::Warning,
         c.inter_socket ? "it selects the TCP socket network even where RDMA devices exist, which is why inter-node "
                          "traffic goes over sockets (inter-node-socket, ND3001)"
                        : "it selects the TCP socket network for inter-node traffic",
         {"ND3001"});
  } else if (!net && !(ib_disable && is_true(ib_disable->value)) && multi && m.using_network.count("Socket") &&
             m.net_using.count("IB")) {
    // Before 2.30 NCCL_NET is not echoed: infer it from NCCL picking Socket
    // although `NET/IB : Using` shows working RDMA devices.
    const auto& obs = m.using_network.at("Socket");
    Finding f = make_finding(
        kInfo, "NCCL chose network Socket although NET/IB : Using lists RDMA devices: NCCL_NET=Socket (not echoed "
               "before NCCL 2.30) or an NCCL_NET that names no RDMA network is the likely cause of inter-node-socket "
               "(ND3001)");
    std::set<uint32_t> hosts;
    for (const auto& o : obs) hosts.insert(o.host);
    f.hosts = host_names(m, hosts);
    cite(m, f, obs.front().line, ctx.options.max_evidence);
    cite(m, f, m.net_using.at("IB").front().line, ctx.options.max_evidence);
    f.related = {"ND3001"};
    out.add(std::move(f));
  }

  const Echo* p2p = find("NCCL_P2P_DISABLE");
  const bool p2p_off = p2p && is_true(p2p->value);
  if (p2p_off) {
    emit(*p2p, Severity::Warning,
         c.intra_shm ? "it turns off CUDA peer-to-peer (NVLink and PCIe P2P), which is why GPUs of one host exchange "
                       "data through host shared memory (intra-node-shm, ND3002)"
                     : "it turns off CUDA peer-to-peer (NVLink and PCIe P2P): GPUs of one host exchange data through "
                       "host shared memory or the network",
         {"ND3002", "ND3003"});
  }
  const Echo* shm = find("NCCL_SHM_DISABLE");
  if (shm && is_true(shm->value)) {
    if (p2p_off) {
      emit(*shm, Severity::Warning,
           "together with NCCL_P2P_DISABLE=1 it leaves GPUs of one host only the network (NET) to talk through"
           " (intra-node-net, ND3003)",
           {"ND3003"});
    } else {
      emit(*shm, Severity::Info,
           "it turns off the shared-memory fallback; harmless while P2P works, but GPU pairs without P2P access "
           "then go through the network",
           {"ND3003"});
    }
  }

  const Echo* ifname = find("NCCL_SOCKET_IFNAME");
  if (ifname && multi) {
    std::string_view bad = bad_interface(ifname->value);
    if (bad.starts_with("lo")) {
      emit(*ifname, Severity::Error,
           fmt::format("the loopback interface '{}' cannot reach other hosts: bootstrap and socket traffic of this "
                       "{} fails to connect or hangs at init",
                       bad, job),
           {"ND3120", "ND1100"});
    } else if (!bad.empty()) {
      emit(*ifname, Severity::Warning,
           fmt::format("'{}' is a container bridge whose addresses other hosts usually cannot reach (or reach "
                       "only through NAT): bootstrap connections fail or crawl",
                       bad),
           {"ND3120", "ND1100"});
    }
  }

  for (const auto& [key, e] : echoes) {
    if (key.first != "NCCL_NET_GDR_LEVEL" || !multi || !low_gdr_level(e.value)) continue;
    bool none = e.value == "LOC" || e.value == "0";
    emit(e, Severity::Warning,
         fmt::format("{}{}", none ? "it turns GPUDirect RDMA off" :
                                    "it allows GPUDirect RDMA only between a GPU and a NIC on the same PCIe switch",
                     c.inter_rdma_no_gdr ? ", which is why inter-node RDMA links run without /GDRDMA "
                                           "(no-gpudirect-rdma, ND3004)"
                                         : ": NIC traffic of other GPUs is staged through host memory"),
         {"ND3004"});
  }
}

}  // namespace nd
