// ND6010 transport-vs-topology: what NCCL did, read against what
// `nvidia-smi topo -m` of the same host says the machine offers.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "checks/gpu/gpu_rules.h"
#include "checks/topology/topology_util.h"
#include "checks/transport/edge_groups.h"
#include "parsers/gpu/side_stream.h"
#include "src/model/rail_map.h"
#include "src/model/topology_paths.h"
#include "src/util/cpuset.h"

namespace nd {
namespace {

class TransportVsTopology final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6010", "transport-vs-topology", Severity::Warning, Needs::Log,
                                  "the log's links or bindings contradict nvidia-smi topo -m: NVLink or PCIe-switch "
                                  "peers through SHM or the network, GPUDirect RDMA off for a GPU far from its NIC, "
                                  "a rank bound away from its GPU's CPUs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// The topology of each host of the log (see topology_of_host), looked up once.
class HostTopologies {
 public:
  explicit HostTopologies(const JobModel& m) : by_host_(m.hosts.size()) {
    for (uint32_t h = 0; h < m.hosts.size(); ++h) by_host_[h] = topology_of_host(m.gpu_side, m.hosts.name(h));
    unnamed_host_ = topology_of_host(m.gpu_side, {});
  }
  const TopologyFact* of(uint32_t host) const { return host < by_host_.size() ? by_host_[host] : unnamed_host_; }
  bool empty() const {
    return !unnamed_host_ && std::none_of(by_host_.begin(), by_host_.end(), [](auto* t) { return t != nullptr; });
  }

 private:
  std::vector<const TopologyFact*> by_host_;
  const TopologyFact* unnamed_host_ = nullptr;  // for ranks whose host is unknown
};

// The rank's GPU as `topo -m` numbers it (NVML order): NCCL's nvmlDev, else
// its busId found in nvidia-smi's output of that host. Not cudaDev, which
// CUDA_VISIBLE_DEVICES renumbers per process.
std::optional<uint32_t> topo_gpu(const JobModel& m, const RankInfo& r, const TopologyFact& t) {
  std::optional<uint32_t> index;
  if (r.nvml_dev >= 0) {
    index = static_cast<uint32_t>(r.nvml_dev);
  } else if (r.bus_id) {
    std::string bus = canonical_bus_id(fmt::format("{:x}", *r.bus_id));
    for (const auto& g : m.gpu_side.gpus) {
      if (g.host == t.host && g.index && !bus.empty() && g.bus_id == bus) index = g.index;
    }
  }
  if (!index || !t.matrix.links.count(fmt::format("GPU{}", *index))) return std::nullopt;
  return index;
}

std::string gpu_name(uint32_t index) { return fmt::format("GPU{}", index); }

// GeForce and TITAN boards have no peer access between them over PCIe:
// NCCL's SHM there is the only path, not a fault.
bool consumer_gpus(const JobModel& m, const TopologyFact& t) {
  return std::any_of(m.gpu_side.gpus.begin(), m.gpu_side.gpus.end(), [&](const GpuTrack& g) {
    return g.host == t.host && names_consumer_board(g.name);
  });
}

// One host's problem of one kind; hosts with the same text fold into one
// finding.
struct Problem {
  Severity severity = Severity::Warning;
  std::string text;  // after "host: "
  std::vector<uint32_t> channels;
  std::vector<LineRef> lines;  // the log's
  LineRef topology;             // the matrix's header
  std::vector<std::string> related;
};

struct Pair {
  std::string link;
  std::set<uint32_t> channels;
  std::vector<LineRef> lines;
};

// Two lines per pair or GPU are enough; the model keeps the text of only
// the first line per host, transport and peer, and a bare line number
// shows nothing.
void keep_line(const JobModel& m, std::vector<LineRef>& lines, LineRef ref) {
  if (lines.size() < 2 && (lines.empty() || m.text_of(ref))) lines.push_back(ref);
}

std::string pairs_text(const std::map<std::pair<uint32_t, uint32_t>, Pair>& pairs) {
  constexpr size_t kListed = 4;
  if (pairs.size() == 1) {
    const auto& [gpus, pair] = *pairs.begin();
    return fmt::format("GPU {} and GPU {} are {} peers", gpus.first, gpus.second, pair.link);
  }
  std::set<std::string> links;
  std::string listed;
  size_t i = 0;
  for (const auto& [gpus, pair] : pairs) {
    links.insert(pair.link);
    if (i++ < kListed) listed += fmt::format("{}{}/{}", i > 1 ? ", " : "", gpus.first, gpus.second);
  }
  if (pairs.size() > kListed) listed += fmt::format(" and {} more pairs", pairs.size() - kListed);
  return fmt::format("GPUs {} are {} peers", listed, fmt::join(links, "/"));
}

// NVLink or PCIe-switch peers that NCCL connected through host memory or the
// network.
void peer_paths(const JobModel& m, const HostTopologies& topo, std::map<uint32_t, std::vector<Problem>>& out) {
  using Key = std::tuple<uint32_t, bool, std::string>;  // host, NVLink, transport
  std::map<Key, std::map<std::pair<uint32_t, uint32_t>, Pair>> found;
  for_each_edge(m, [&](const EdgeView& e) {
    if (e.locality != Locality::Intra) return;
    std::string via;
    if (e.transport.family == TransportFamily::SHM) via = "SHM";
    if (e.transport.family == TransportFamily::NET) via = "NET/" + e.transport.net_name;
    if (via.empty()) return;
    uint32_t host = e.comm.host_of(e.edge.sender);
    const TopologyFact* t = topo.of(host);
    if (!t || e.edge.sender >= e.comm.ranks.size() || e.edge.receiver >= e.comm.ranks.size()) return;
    auto a = topo_gpu(m, e.comm.ranks[e.edge.sender], *t);
    auto b = topo_gpu(m, e.comm.ranks[e.edge.receiver], *t);
    if (!a || !b || *a == *b) return;
    std::string link = topo_link(t->matrix, gpu_name(*a), gpu_name(*b));
    bool nvlink = is_nvlink(link);
    if (!nvlink && link != "PIX" && link != "PXB") return;
    Pair& p = found[{host, nvlink, via}][std::minmax(*a, *b)];
    p.link = nvlink ? "NVLink (" + link + ")" : link;
    p.channels.insert(e.edge.channel);
    keep_line(m, p.lines, e.edge.line());
  });
  for (const auto& [key, pairs] : found) {
    const auto& [host, nvlink, via] = key;
    const TopologyFact* t = topo.of(host);
    Problem p;
    std::string cost = via == "SHM" ? "host memory" : "the network adapter";
    if (nvlink) {
      p.text = fmt::format("{} in nvidia-smi topo -m, but NCCL connected them through {}: {} instead of NVLink; "
                           "P2P was turned off or refused (NCCL_P2P_DISABLE or NCCL_P2P_LEVEL set, or ranks in "
                           "containers without a shared IPC namespace: run them with --ipc=host)",
                           pairs_text(pairs), via, cost);
    } else if (consumer_gpus(m, *t)) {
      p.severity = Severity::Info;
      p.text = fmt::format("{} in nvidia-smi topo -m, and NCCL connected them through {}: GeForce and TITAN "
                           "boards have no peer access over PCIe, so this is the only path they have",
                           pairs_text(pairs), via);
    } else {
      p.text = fmt::format("{} in nvidia-smi topo -m, but NCCL connected them through {}: {} instead of P2P under "
                           "the switch; P2P was turned off or refused (NCCL_P2P_DISABLE or NCCL_P2P_LEVEL set, ACS "
                           "redirect on the switch, a VM without peer access, or containers without a shared IPC "
                           "namespace)",
                           pairs_text(pairs), via, cost);
    }
    std::set<uint32_t> channels;
    for (const auto& [gpus, pair] : pairs) {
      channels.insert(pair.channels.begin(), pair.channels.end());
      p.lines.insert(p.lines.end(), pair.lines.begin(), pair.lines.end());
    }
    p.channels.assign(channels.begin(), channels.end());
    p.topology = t->ref;
    p.related = via == "SHM" ? std::vector<std::string>{"ND3002"} : std::vector<std::string>{"ND3003"};
    out[host].push_back(std::move(p));
  }
}

std::string path_words(const std::string& path) {
  if (path == "SYS") return "across the CPU interconnect (SYS)";
  if (path == "NODE") return "across the host bridges of its NUMA node (NODE)";
  return fmt::format("through the host bridge ({})", path);
}

// GPUs whose inter-node RDMA traffic ran without GPUDirect RDMA while their
// NIC is past a PCIe switch from them: NCCL enables GDR only up to PXB by
// default (NCCL_NET_GDR_LEVEL), so the distance alone explains ND3004.
void far_nics(const JobModel& m, const CheckOptions& options, const HostTopologies& topo,
              std::map<uint32_t, std::vector<Problem>>& out) {
  struct Far {
    std::string nic, path;
    bool used = false;  // the NIC NCCL printed for the link, not just the nearest one
    std::vector<LineRef> lines;
  };
  std::map<uint32_t, std::map<uint32_t, Far>> found;  // host -> GPU -> its NIC
  for_each_edge(m, [&](const EdgeView& e) {
    if (e.locality != Locality::Inter || e.gdr || e.transport.family != TransportFamily::NET ||
        !is_rdma_network(e.transport.net_name, options)) {
      return;
    }
    for (auto [rank, transport, line] : {std::tuple{e.edge.sender, e.edge.send_transport, e.edge.send_line},
                                         std::tuple{e.edge.receiver, e.edge.recv_transport, e.edge.recv_line}}) {
      if (transport == kNoTransport || rank >= e.comm.ranks.size()) continue;
      uint32_t host = e.comm.host_of(rank);
      const TopologyFact* t = topo.of(host);
      if (!t) continue;
      auto gpu = topo_gpu(m, e.comm.ranks[rank], *t);
      if (!gpu) continue;
      Far far;
      const Transport& tr = m.transports[transport];
      if (const HostNets* nets = listed_nets(m, host, tr.net_name)) {
        for (const auto& d : nets->devices) {
          if (d.index == tr.net_dev) far.nic = d.name;
        }
      }
      far.path = far.nic.empty() ? std::string() : topo_link(t->matrix, gpu_name(*gpu), far.nic);
      far.used = !far.path.empty();
      if (!far.used) {
        auto nearest = nearest_nic(t->matrix, gpu_name(*gpu));
        if (!nearest) continue;
        far.nic = nearest->nic;
        far.path = nearest->path;
      }
      auto rank_of_path = pci_path_rank(far.path);
      if (!rank_of_path || *rank_of_path <= *pci_path_rank("PXB")) continue;
      auto [it, fresh] = found[host].emplace(*gpu, far);
      keep_line(m, it->second.lines, line);
    }
  });
  for (const auto& [host, gpus] : found) {
    Problem p;
    p.severity = Severity::Info;
    std::vector<std::string> parts;
    for (const auto& [gpu, far] : gpus) {
      parts.push_back(fmt::format("GPU {} reaches {}, {}, only {}", gpu, far.nic,
                                  far.used ? "the NIC it used" : "its nearest NIC", path_words(far.path)));
      p.lines.insert(p.lines.end(), far.lines.begin(), far.lines.end());
    }
    constexpr size_t kListed = 4;
    std::string listed = fmt::format("{}", fmt::join(parts.begin(), parts.begin() + std::min(parts.size(), kListed), "; "));
    if (parts.size() > kListed) listed += fmt::format("; and {} more GPUs", parts.size() - kListed);
    p.text = fmt::format("{} in nvidia-smi topo -m: NCCL uses GPUDirect RDMA only up to PXB by default "
                         "(NCCL_NET_GDR_LEVEL), so this inter-node traffic is staged in host memory; place each rank "
                         "on a GPU under the same PCIe switch as its NIC (NCCL_IB_HCA), or where the platform "
                         "forwards peer traffic well, try NCCL_NET_GDR_LEVEL=SYS and measure",
                         listed);
    p.topology = topo.of(host)->ref;
    p.related = {"ND3004"};
    out[host].push_back(std::move(p));
  }
}

// A rank that Slurm bound (cpu-bind=verbose: OS CPU ids) to CPUs outside its
// GPU's `CPU Affinity`. Open MPI prints logical ids, which do not compare
// with the OS ids of topo -m; NCCL 2.28's own affinity lines are ND2013's.
void far_bindings(const JobModel& m, const HostTopologies& topo, std::map<uint32_t, std::vector<Problem>>& out) {
  using Process = std::pair<uint32_t, uint64_t>;  // host, pid
  std::set<Process> told_by_nccl;
  for (const auto& a : m.affinities) {
    if (a.gpu_set) told_by_nccl.emplace(a.host, a.pid);
  }
  // Each process as a rank of the first communicator that names it.
  std::map<Process, std::pair<const Communicator*, uint32_t>> ranks;
  for (const auto& b : m.bindings) {
    if (b.source == BindingSource::Slurm) ranks.try_emplace({b.host, b.pid}, nullptr, 0);
  }
  if (ranks.empty()) return;
  for (const auto& comm : m.comms) {
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      auto it = ranks.find({comm.ranks[r].host, comm.ranks[r].pid});
      if (it != ranks.end() && !it->second.first) it->second = {&comm, r};
    }
  }
  for (const auto& b : m.bindings) {
    if (b.source != BindingSource::Slurm || b.unbound || b.unit != CpuUnit::OsCpu || b.cpus.empty()) continue;
    const TopologyFact* t = topo.of(b.host);
    auto rank = ranks.find({b.host, b.pid});
    if (!t || told_by_nccl.count({b.host, b.pid}) || rank == ranks.end() || !rank->second.first) continue;
    const auto& [comm, r] = rank->second;
    const RankInfo& info = comm->ranks[r];
    auto gpu = topo_gpu(m, info, *t);
    auto cell = gpu ? t->matrix.cpu_affinity.find(gpu_name(*gpu)) : t->matrix.cpu_affinity.end();
    auto local = cell != t->matrix.cpu_affinity.end() ? parse_cpu_list(cell->second) : std::nullopt;
    if (!local || local->empty() || local->intersects(b.cpus)) continue;
    Problem p;
    p.text = fmt::format("rank {} of communicator {} (pid {}) is bound to CPUs {}, none of them in its GPU {}'s CPU "
                         "Affinity in nvidia-smi topo -m ({}): host memory and proxy threads sit on the far socket; "
                         "bind each rank to its GPU's cores (srun --cpu-bind=... with --gpu-bind=closest, or a "
                         "binding map per local rank)",
                         r, comm->key, b.pid, b.cpus.to_string(), *gpu, cell->second);
    p.lines = {b.line, info.init_line};
    p.topology = t->ref;
    p.related = {"ND2013"};
    out[b.host].push_back(std::move(p));
  }
}

}  // namespace

void TransportVsTopology::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  HostTopologies topo(m);
  if (topo.empty()) return;
  std::map<uint32_t, std::vector<Problem>> by_host;
  peer_paths(m, topo, by_host);
  far_nics(m, ctx.options, topo, by_host);
  far_bindings(m, topo, by_host);
  // The same text on many hosts (one bare topo -m for a job of identical
  // nodes) is one finding.
  std::map<std::string, std::pair<std::vector<uint32_t>, const Problem*>> folded;
  std::vector<std::string> order;
  for (const auto& [host, problems] : by_host) {
    for (const auto& p : problems) {
      auto [it, fresh] = folded.try_emplace(p.text);
      if (fresh) {
        it->second.second = &p;
        order.push_back(p.text);
      }
      it->second.first.push_back(host);
    }
  }
  constexpr size_t kHostsNamed = 3;
  for (const auto& text : order) {
    const auto& [hosts, p] = folded[text];
    std::vector<std::string> names;
    for (uint32_t h : hosts) {
      if (h != kNoHost) names.push_back(m.host_name(h));
    }
    std::string where;
    if (!names.empty()) {
      where = fmt::format("{}", fmt::join(names.begin(), names.begin() + std::min(names.size(), kHostsNamed), ", "));
      if (names.size() > kHostsNamed) where += fmt::format(" and {} more hosts", names.size() - kHostsNamed);
      where += ": ";
    }
    Finding f = make_finding(kInfo, where + text, p->severity);
    f.hosts = names;
    f.channels = p->channels;
    f.related = p->related;
    // The matrix's line always: the log's lines alone do not show the contradiction.
    f.evidence = evidence_of(m, p->lines, ctx.options.max_evidence > 1 ? ctx.options.max_evidence - 1 : 1);
    auto topology = evidence_of(m, {p->topology}, 1);
    f.evidence.insert(f.evidence.end(), topology.begin(), topology.end());
    f.subject = p->text.substr(0, p->text.find(':'));
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_transport_vs_topology() { return std::make_unique<TransportVsTopology>(); }

}  // namespace nd
