#include "src/report/job_summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <span>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "checks/config/nccl_releases.h"
#include "checks/transport/edge_groups.h"
#include "src/model/channels.h"
#include "src/model/networks.h"
#include "src/model/ring_graph.h"
#include "src/report/job_links.h"

namespace nd {

bool version_less(const std::string& a, const std::string& b) {
  return parse_nccl_version(a).value_or(NcclVersion{}) < parse_nccl_version(b).value_or(NcclVersion{});
}

std::vector<std::string> names(const std::vector<Printed>& printed) {
  std::vector<std::string> out;
  out.reserve(printed.size());
  for (const auto& p : printed) out.push_back(p.name);
  return out;
}

std::optional<size_t> primary_comm(const JobModel& model) {
  std::optional<size_t> best;
  for (size_t i = 0; i < model.comms.size(); ++i) {
    const Communicator& c = model.comms[i];
    if (!best) {
      best = i;
      continue;
    }
    const Communicator& b = model.comms[*best];
    if ((b.synthetic && !c.synthetic) || (b.synthetic == c.synthetic && c.size() > b.size())) best = i;
  }
  return best;
}

namespace {

Printed printed(const std::string& name, const std::vector<Observation>& who) {
  Printed p{name, 0, false};
  for (const auto& o : who) {
    // The model keys an observation by (host, pid); pid 0 is a line that names no process.
    if (o.pid == 0) {
      p.unnamed = true;
    } else {
      ++p.processes;
    }
  }
  return p;
}

std::vector<Printed> printed_all(const std::map<std::string, std::vector<Observation>>& what) {
  std::vector<Printed> out;
  for (const auto& [name, who] : what) out.push_back(printed(name, who));
  return out;
}

// A connection's place in the transport matrix: the link_label() of an
// edge depends only on its transport and on GDR.
struct CellKey {
  uint32_t from, to;
  uint16_t transport;
  bool gdr;
  bool operator==(const CellKey&) const = default;
};

struct CellHash {
  size_t operator()(const CellKey& k) const {
    uint64_t h = (uint64_t{k.from} << 32 | k.to) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h ^ (uint64_t{k.transport} << 1 | k.gdr));
  }
};

struct Cell {
  uint64_t connections = 0;
  const Edge* sample = nullptr;
};

// What the walks over the communicators' edges learn. Flags by host id and
// by channel, not sets: a walk visits millions of edges.
struct EdgeWalk {
  std::unordered_map<CellKey, Cell, CellHash> cells;
  std::vector<bool> hosts_seen;     // by host id
  ChannelSet channels_seen;
};

bool printed_gdr(const JobModel& m, uint16_t id) { return id != kNoTransport && id < m.transports.size() && m.transports[id].gdr; }

CommSummary summarize_comm(const JobModel& m, const Communicator& c, EdgeWalk& walk, bool channel_links) {
  CommSummary cs;
  cs.key = c.key;
  cs.nranks = c.size();
  cs.nnodes = c.nnodes;
  cs.synthetic = c.synthetic;
  cs.edges = c.edges.size();
  std::set<uint32_t> hosts;
  for (const auto& r : c.ranks) {
    if (r.host != kNoHost) hosts.insert(r.host);
  }
  cs.hosts = hosts.size();

  cs.channels = channels_set_up(c).size();
  cs.connected_channels = connected_channels(c).size();
  cs.ring_channels = ring_channels(c).size();
  cs.tree_channels = tree_channels(c).size();

  Cell* last = nullptr;
  CellKey last_key{};
  // The same cells, one per channel: `diff` compares runs channel by channel.
  // A run of neighbouring edges mostly shares a channel and host pair, so a
  // flat list of runs, sorted and joined after, stays short.
  struct ChannelRun {
    uint16_t channel;
    uint32_t from, to;
    uint16_t transport;
    bool gdr;
    uint64_t connections;
    const Edge* sample;
  };
  std::vector<ChannelRun> runs;
  for (const auto& e : c.edges) {
    uint32_t a = c.host_of(e.sender);
    uint32_t b = c.host_of(e.receiver);
    walk.channels_seen.insert(e.channel);
    if (a != kNoHost) walk.hosts_seen[a] = true;
    if (b != kNoHost) walk.hosts_seen[b] = true;
    if (a == kNoHost || b == kNoHost) continue;
    CellKey key{a, b, e.transport(), printed_gdr(m, e.send_transport) || printed_gdr(m, e.recv_transport)};
    // Neighbouring edges mostly join the same two hosts the same way.
    if (!last || !(last_key == key)) {
      last = &walk.cells[key];
      last_key = key;
    }
    if (!last->sample) last->sample = &e;
    ++last->connections;
    if (!channel_links) continue;
    if (runs.empty() || runs.back().channel != e.channel || runs.back().from != a || runs.back().to != b ||
        runs.back().transport != key.transport || runs.back().gdr != key.gdr) {
      runs.push_back({e.channel, a, b, key.transport, key.gdr, 0, &e});
    }
    ++runs.back().connections;
  }
  if (runs.empty()) return cs;
  // The label of a link depends only on its transport and GDR (one label per
  // cell of the matrix above); links are ordered by channel, host names and
  // label, and runs that end up with one label are joined.
  std::map<std::pair<uint16_t, bool>, std::string> labels;
  std::vector<const std::string*> label_of(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    auto [it, added] = labels.try_emplace({runs[i].transport, runs[i].gdr});
    if (added) it->second = link_label(m, *runs[i].sample);
    label_of[i] = &it->second;
  }
  std::vector<uint32_t> order(runs.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto sort_key = [&](uint32_t i) {
    return std::tuple(runs[i].channel, std::string_view(m.hosts.name(runs[i].from)),
                      std::string_view(m.hosts.name(runs[i].to)), std::string_view(*label_of[i]));
  };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return sort_key(x) < sort_key(y); });
  for (size_t k = 0; k < order.size(); ++k) {
    const ChannelRun& run = runs[order[k]];
    if (k > 0 && sort_key(order[k]) == sort_key(order[k - 1])) {
      cs.links.back().connections += run.connections;
      continue;
    }
    cs.links.push_back({run.channel, run.from, run.to, m.host_name(run.from), m.host_name(run.to), *label_of[order[k]],
                        run.connections});
  }
  return cs;
}

void summarize_transports(const JobModel& model, JobSummary& s) {
  // Asked per edge, answered per transport or per (host, transport): millions
  // of edges, a few thousand answers.
  std::vector<bool> intra_seen(model.transports.size()), inter_seen(model.transports.size());
  std::unordered_set<uint64_t> named;  // host << 16 | transport
  std::set<std::string> intra, inter, families;
  size_t net_edges = 0, gdr_edges = 0;
  for_each_edge(model, [&](const EdgeView& e) {
    bool is_net = e.transport.family == TransportFamily::NET;
    uint16_t id = e.edge.transport();
    if (e.locality == Locality::Intra) {
      if (!intra_seen[id] && e.transport.family != TransportFamily::Unknown &&
          e.transport.family != TransportFamily::CollNet) {
        intra.insert(family_name(e.transport.family));
      }
      intra_seen[id] = true;
    } else if (is_net) {
      if (!inter_seen[id]) inter.insert(e.transport.net_name);
      inter_seen[id] = true;
      // The side that printed the transport names the device in its own list.
      bool sent = e.edge.send_transport != kNoTransport;
      uint32_t host = e.comm.host_of(sent ? e.edge.sender : e.edge.receiver);
      if (named.insert(uint64_t{host} << 16 | id).second) {
        families.insert(network_family(model, host, e.transport.net_name, e.transport.net_dev));
      }
    }
    if (is_net && e.locality != Locality::Intra) {
      ++net_edges;
      gdr_edges += e.gdr ? 1 : 0;
    }
  });
  if (model.max_nvls_channels > 0 || model.nvls_connected) intra.insert("NVLS");
  s.intra.assign(intra.begin(), intra.end());
  s.inter.assign(inter.begin(), inter.end());
  if (!families.empty()) {
    s.inter_from = "connections";
  } else if (s.hosts >= 2) {
    // 2.22+ connects at the first collective, so an excerpt often ends before
    // any connection line: then NCCL's own choice names the network, and
    // failing that, WARNs from IB at work.
    for (const auto& c : chosen_networks(model)) families.insert(network_family(model, c.host, c.name));
    if (!families.empty()) {
      s.inter_from = "network";
    } else {
      for (const auto& c : ib_at_work(model)) families.insert(network_family(model, c.host, c.name));
      if (!families.empty()) s.inter_from = "warnings";
    }
  }
  s.inter_families.assign(families.begin(), families.end());
  s.gdr = net_edges == 0 ? "na" : gdr_edges == net_edges ? "yes" : gdr_edges == 0 ? "no" : "mixed";
}

void summarize_hosts(const JobModel& m, JobSummary& s) {
  std::map<uint32_t, HostSummary> hosts;
  std::map<std::tuple<uint32_t, uint64_t, int>, size_t> gpu_index;
  std::map<uint32_t, std::set<uint64_t>> pids;
  for (size_t c = 0; c < m.comms.size(); ++c) {
    const Communicator& comm = m.comms[c];
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      const RankInfo& info = comm.ranks[r];
      if (info.host == kNoHost) {
        if (s.primary == c && info.pid != 0) s.host_unknown_ranks.push_back(r);
        continue;
      }
      HostSummary& h = hosts[info.host];
      h.host = info.host;
      pids[info.host].insert(info.pid);
      auto [it, inserted] = gpu_index.try_emplace({info.host, info.pid, info.cuda_dev}, h.gpus.size());
      if (inserted) {
        h.gpus.push_back({info.pid, !is_synthetic_pid(info.pid), info.cuda_dev, info.nvml_dev, info.bus_id, {}});
      }
      GpuSummary& g = h.gpus[it->second];
      if (g.nvml_dev < 0) g.nvml_dev = info.nvml_dev;
      if (!g.bus_id) g.bus_id = info.bus_id;
      g.ranks.emplace_back(c, r);
      if (s.primary == c) h.primary_ranks.push_back(r);
    }
  }
  for (size_t i = 0; i < m.host_nets.size(); ++i) {
    const HostNets& n = m.host_nets[i];
    s.nics.push_back({n.host, m.host_name(n.host), n.net, n.devices});
    auto it = hosts.find(n.host);
    if (it != hosts.end()) it->second.nics.push_back(i);
  }
  for (auto& [id, row] : hosts) {
    row.name = m.host_name(id);
    row.processes = pids[id].size();
    std::sort(row.gpus.begin(), row.gpus.end(), [](const GpuSummary& x, const GpuSummary& y) {
      return std::tie(x.nvml_dev, x.cuda_dev, x.pid) < std::tie(y.nvml_dev, y.cuda_dev, y.pid);
    });
    std::sort(row.primary_ranks.begin(), row.primary_ranks.end());
    s.host_rows.push_back(std::move(row));
  }
  std::sort(s.host_rows.begin(), s.host_rows.end(),
            [](const HostSummary& x, const HostSummary& y) { return x.name < y.name; });
}

void summarize_matrix(const JobModel& m, const std::unordered_map<CellKey, Cell, CellHash>& cells, JobSummary& s) {
  std::map<std::pair<uint32_t, uint32_t>, std::map<std::string, uint64_t>> pairs;
  for (const auto& [key, cell] : cells) pairs[{key.from, key.to}][link_label(m, *cell.sample)] += cell.connections;
  for (auto& [pair, labels] : pairs) {
    s.matrix.push_back({pair.first, pair.second, m.host_name(pair.first), m.host_name(pair.second),
                        {labels.begin(), labels.end()}});
  }
}

void summarize_rails(const JobModel& m, JobSummary& s) {
  for (auto& r : build_rail_map(m, true)) {
    RailSummary rail{r.host, m.host_name(r.host), std::move(r.uses), r.whole, {}};
    for (int d : r.idle_devs) rail.idle_nics.push_back(nic_name(m, r.host, r.listed->net, d));
    s.rails.push_back(std::move(rail));
  }
}

void summarize_settings(const JobModel& m, JobSummary& s) {
  std::map<std::pair<std::string, std::string>, std::set<std::string>> values;
  for (const auto& e : m.env) values[{e.name, e.value}].insert(m.host_name(e.host));
  for (auto& [setting, hosts] : values) {
    s.settings.push_back({setting.first, setting.second, {hosts.begin(), hosts.end()}});
  }
}

}  // namespace

JobSummary summarize(const JobModel& model, SummaryParts parts) {
  JobSummary s;
  s.files = model.files;
  s.counters = model.counters;
  s.communicators = model.comms.size();
  s.primary = primary_comm(model);
  s.processes = model.processes.size();
  // The job's size as the input states it: Init lines' nranks, else the
  // ranks its lines name, its ring listings and its 2.20+ shape lines
  // (an excerpt names only some ranks).
  uint32_t max_nodes = 0;
  s.ranks = model.unclaimed_shape_nranks;
  s.ranks_stated = s.ranks > 0;
  for (const auto& c : model.comms) {
    max_nodes = std::max(max_nodes, c.nnodes);
    size_t size = c.size();
    bool stated = c.nranks != 0;
    for (const auto& l : c.nranks ? std::span<const ListingRecord>() : std::span<const ListingRecord>(c.listings)) {
      if (l.ranks.empty()) continue;
      size_t listed = *std::max_element(l.ranks.begin(), l.ranks.end()) + size_t{1};
      stated = stated || listed >= size;
      size = std::max<size_t>(size, listed);
    }
    if (size > s.ranks) {
      s.ranks = size;
      s.ranks_stated = stated;
    } else if (size == s.ranks) {
      s.ranks_stated = s.ranks_stated || stated;
    }
  }
  s.hosts = max_nodes ? max_nodes : model.hosts.size();
  s.hosts = std::max<size_t>(s.hosts, model.unclaimed_shape_nnodes);
  s.named_hosts = model.hosts.size();
  for (const auto& p : model.processes) s.host_unknown_processes += p.host == kNoHost;

  s.nccl_versions = printed_all(model.versions);
  std::sort(s.nccl_versions.begin(), s.nccl_versions.end(),
            [](const Printed& a, const Printed& b) { return version_less(a.name, b.name); });
  s.cuda_versions = printed_all(model.cuda_versions);
  for (const auto& [code, who] : model.driver_versions) {
    s.driver_versions.push_back({code, printed(fmt::format("{}.{}", code / 1000, (code % 1000) / 10), who)});
  }
  s.networks = printed_all(model.using_network);
  summarize_transports(model, s);
  summarize_hosts(model, s);

  EdgeWalk walk{{}, std::vector<bool>(model.hosts.size()), {}};
  for (const auto& c : model.comms) s.comms.push_back(summarize_comm(model, c, walk, parts.channel_links));
  summarize_matrix(model, walk.cells, s);
  summarize_rails(model, s);
  summarize_settings(model, s);
  s.gpu_side = summarize_gpu_side(model);

  Coverage& cov = s.coverage;
  cov.hosts_seen = static_cast<size_t>(std::count(walk.hosts_seen.begin(), walk.hosts_seen.end(), true));
  cov.hosts_announced = std::max(s.hosts, cov.hosts_seen);
  if (s.primary) {
    const Communicator& largest = model.comms[*s.primary];
    std::vector<bool> seen(largest.size(), false);
    for (const auto& e : largest.edges) {
      for (uint32_t r : {e.sender, e.receiver}) {
        if (r < seen.size()) seen[r] = true;
      }
    }
    cov.ranks_seen = static_cast<size_t>(std::count(seen.begin(), seen.end(), true));
    cov.ranks_announced = largest.size();
  }
  for (uint16_t ch : walk.channels_seen.list()) cov.channels.push_back(ch);
  cov.bindings = !model.bindings.empty();
  return s;
}

}  // namespace nd
