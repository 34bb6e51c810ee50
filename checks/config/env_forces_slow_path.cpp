#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/config/config_rules.h"
#include "checks/config/evidence.h"
#include "checks/transport/edge_groups.h"
#include "src/model/networks.h"
#include "src/model/ring_graph.h"

namespace nd {
namespace {

class EnvForcesSlowPath final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3110", "env-forces-slow-path", Severity::Warning, Needs::Log,
                                  "an NCCL_* setting echoed in the log forces a slower transport"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

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

// What the log shows the job doing, so that a setting is only a fault where
// its effect is in the log, and names the finding it causes.
struct Consequences {
  bool inter_socket = false;  // NET/Socket between hosts, or `Using network Socket`
  bool inter_other = false;   // an inter-node network other than sockets (a link or NCCL's choice)
  bool intra_shm = false;
  bool intra_net = false;
  bool intra_links = false;   // any intra-node connection line
  bool inter_rdma_gdr = false;
  bool inter_rdma_no_gdr = false;
  bool inter_links = false;   // any inter-node connection line
  LineRef no_gdr_line;        // the first inter-node RDMA link without /GDRDMA
};

Consequences consequences(const JobModel& m, const CheckOptions& options) {
  Consequences c;
  for_each_edge(m, [&](const EdgeView& e) {
    if (e.locality == Locality::Intra) c.intra_links = true;
    if (e.transport.family == TransportFamily::SHM && e.locality == Locality::Intra) c.intra_shm = true;
    if (e.transport.family != TransportFamily::NET) return;
    if (e.locality == Locality::Intra) {
      c.intra_net = true;
      return;
    }
    c.inter_links = true;
    if (is_socket_network(e.transport.net_name)) {
      c.inter_socket = true;
      return;
    }
    c.inter_other = true;
    if (!is_rdma_network(e.transport.net_name, options)) return;
    if (e.gdr) {
      c.inter_rdma_gdr = true;
    } else if (!c.inter_rdma_no_gdr) {
      c.inter_rdma_no_gdr = true;
      c.no_gdr_line = e.edge.line();
    }
  });
  if (m.hosts.size() >= 2) {
    for (const auto& n : chosen_networks(m)) (is_socket_network(n.name) ? c.inter_socket : c.inter_other) = true;
  }
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
                                                                       : names_text(names, ctx.options);
                                                }()),
                                                message));
    f.severity = sev;
    if (sev != Severity::Info && e.name == "NCCL_SOCKET_IFNAME") {
      f.fix = "set NCCL_SOCKET_IFNAME to an interface every host reaches the others on (the data network's NIC)";
    } else if (sev != Severity::Info) {
      f.fix = fmt::format("remove {}={} from the job script, the image or nccl.conf, or give it its fast value", e.name,
                          e.value);
    }
    f.hosts = host_names(m, e.hosts);
    for (LineRef ref : e.lines) cite(m, f, ref, ctx.options.max_evidence);
    f.related = std::move(related);
    out.add(std::move(f));
  };

  // A setting whose effect the log does not show is a note saying what was
  // not checked; one whose effect the log contradicts (a plugin network took
  // over, every link has GDR) costs nothing here and says nothing.
  const std::string unseen = "the log shows no inter-node connection line or network choice to tell whether it costs "
                             "anything here";
  const Echo* ib_disable = find("NCCL_IB_DISABLE");
  if (ib_disable && is_true(ib_disable->value) && multi && (c.inter_socket || !c.inter_other)) {
    emit(*ib_disable, c.inter_socket ? Severity::Error : Severity::Info,
         c.inter_socket ? "it turns off NCCL's InfiniBand/RoCE transport, which is why inter-node traffic goes over TCP "
                          "sockets (inter-node-socket, ND3001)"
                        : fmt::format("it turns off NCCL's InfiniBand/RoCE transport, so on this {} inter-node traffic "
                                      "goes over TCP sockets unless a network plugin takes over; {}",
                                      job, unseen),
         {"ND3001"});
  }
  const Echo* net = find("NCCL_NET");
  if (net && lower(net->value) == "socket" && multi) {
    if (c.inter_socket || !c.inter_other) {
      emit(*net, c.inter_socket ? Severity::Error : Severity::Info,
           c.inter_socket ? "it selects the TCP socket network even where RDMA devices exist, which is why inter-node "
                            "traffic goes over sockets (inter-node-socket, ND3001)"
                          : fmt::format("it selects the TCP socket network for inter-node traffic; {}", unseen),
           {"ND3001"});
    }
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

  // NCCL_P2P_LEVEL=LOC (or its old number 0) turns P2P off as NCCL_P2P_DISABLE=1 does.
  const Echo* p2p = find("NCCL_P2P_DISABLE");
  if (!(p2p && is_true(p2p->value))) {
    const Echo* level = find("NCCL_P2P_LEVEL");
    if (level && (lower(level->value) == "loc" || level->value == "0")) p2p = level;
  }
  const bool p2p_off = p2p && (p2p->name == "NCCL_P2P_LEVEL" || is_true(p2p->value));
  const std::string intra_unseen = "the log shows no intra-node connection line to tell whether it costs anything here";
  // Intra-node links with neither SHM nor NET among them: the setting cost
  // nothing the log can see.
  if (p2p_off && (c.intra_shm || c.intra_net || !c.intra_links)) {
    bool shown = c.intra_shm || c.intra_net;
    emit(*p2p, shown ? Severity::Warning : Severity::Info,
         c.intra_shm ? "it turns off CUDA peer-to-peer (NVLink and PCIe P2P), which is why GPUs of one host exchange "
                       "data through host shared memory (intra-node-shm, ND3002)"
         : c.intra_net ? "it turns off CUDA peer-to-peer (NVLink and PCIe P2P), which is why GPUs of one host exchange "
                         "data through the network (intra-node-net, ND3003)"
                       : fmt::format("it turns off CUDA peer-to-peer (NVLink and PCIe P2P): GPUs of one host exchange "
                                     "data through host shared memory or the network; {}",
                                     intra_unseen),
         {"ND3002", "ND3003"});
  }
  const Echo* shm = find("NCCL_SHM_DISABLE");
  if (shm && is_true(shm->value)) {
    if (p2p_off) {
      const std::string with = fmt::format("together with {}={}", p2p->name, p2p->value);
      emit(*shm, c.intra_net ? Severity::Warning : Severity::Info,
           c.intra_net ? with + " it leaves GPUs of one host only the network (NET) to talk through (intra-node-net, "
                                "ND3003)"
                       : fmt::format("{} it leaves GPUs of one host only the network (NET) to talk through; {}", with,
                                     intra_unseen),
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
    if (!bad.empty() && c.inter_links) {
      // Ranks on different hosts connected, so bootstrap found its way.
      emit(*ifname, Severity::Info,
           fmt::format("'{}' is usually unreachable from other hosts, yet this job's ranks on different hosts "
                       "connected: harmless here, but fragile",
                       bad),
           {"ND3120", "ND1100"});
    } else if (bad.starts_with("lo")) {
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

  // A low GDR level costs only where links lack /GDRDMA: with every NIC on
  // its GPU's PCIe switch, PIX still allows GPUDirect RDMA on all of them.
  for (const auto& [key, e] : echoes) {
    if (key.first != "NCCL_NET_GDR_LEVEL" || !multi || !low_gdr_level(e.value)) continue;
    if (!c.inter_rdma_no_gdr && c.inter_rdma_gdr) continue;
    bool none = e.value == "LOC" || e.value == "0";
    std::string what = none ? "it turns GPUDirect RDMA off"
                            : "it allows GPUDirect RDMA only between a GPU and a NIC on the same PCIe switch";
    if (c.inter_rdma_no_gdr) {
      Echo cited = e;
      // The echo, then a link that shows its effect, then the other hosts' echoes.
      cited.lines.insert(cited.lines.begin() + 1, c.no_gdr_line);
      emit(cited, Severity::Warning,
           what + ", which is why inter-node RDMA links run without /GDRDMA (no-gpudirect-rdma, ND3004)", {"ND3004"});
    } else {
      emit(e, Severity::Info,
           fmt::format("{}: NIC traffic of other GPUs is staged through host memory; the log shows no inter-node "
                       "RDMA connection line to tell whether any link lost /GDRDMA",
                       what),
           {"ND3004"});
    }
  }
}

std::unique_ptr<Rule> make_env_forces_slow_path() { return std::make_unique<EnvForcesSlowPath>(); }

}  // namespace nd
