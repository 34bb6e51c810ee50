#include "src/report/summary_renderer.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/model/rail_map.h"
#include "src/model/ring_graph.h"
#include "src/report/job_links.h"
#include "src/util/ranges.h"
#include "src/util/text.h"

namespace nd {
namespace {

struct GpuRow {
  uint64_t pid = 0;
  int cuda_dev = -1;
  int nvml_dev = -1;
  std::optional<uint64_t> bus_id;
  std::vector<std::pair<size_t, uint32_t>> ranks;  // (communicator, rank)
};

struct HostRow {
  uint32_t host = kNoHost;
  std::vector<GpuRow> gpus;
  std::set<uint64_t> pids;
};

using PairLabels = std::map<std::string, uint64_t>;  // label -> connections

struct Summary {
  std::vector<HostRow> hosts;  // sorted by name
  // Ranks of the largest communicator that printed lines naming no host.
  std::vector<uint32_t> host_unknown;
  size_t primary = SIZE_MAX;   // the largest communicator
  std::map<std::pair<uint32_t, uint32_t>, PairLabels> matrix;  // (from host, to host)
  std::vector<HostRails> rails;
};

Summary collect(const JobModel& m) {
  Summary s;
  std::map<uint32_t, HostRow> hosts;
  std::map<std::tuple<uint32_t, uint64_t, int>, size_t> gpu_index;
  for (size_t c = 0; c < m.comms.size(); ++c) {
    const Communicator& comm = m.comms[c];
    if (s.primary == SIZE_MAX || comm.size() > m.comms[s.primary].size()) s.primary = c;
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      const RankInfo& info = comm.ranks[r];
      if (info.host == kNoHost) continue;
      HostRow& h = hosts[info.host];
      h.host = info.host;
      h.pids.insert(info.pid);
      auto [it, inserted] = gpu_index.try_emplace({info.host, info.pid, info.cuda_dev}, h.gpus.size());
      if (inserted) h.gpus.push_back({info.pid, info.cuda_dev, info.nvml_dev, info.bus_id, {}});
      GpuRow& g = h.gpus[it->second];
      if (g.nvml_dev < 0) g.nvml_dev = info.nvml_dev;
      if (!g.bus_id) g.bus_id = info.bus_id;
      g.ranks.emplace_back(c, r);
    }
    for (const Edge& e : comm.edges) {
      uint32_t a = comm.host_of(e.sender);
      uint32_t b = comm.host_of(e.receiver);
      if (a == kNoHost || b == kNoHost) continue;
      ++s.matrix[{a, b}][link_label(m, e)];
    }
  }
  if (s.primary != SIZE_MAX) {
    const Communicator& comm = m.comms[s.primary];
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      if (comm.ranks[r].host == kNoHost && comm.ranks[r].pid != 0) s.host_unknown.push_back(r);
    }
  }
  for (auto& [id, row] : hosts) {
    std::sort(row.gpus.begin(), row.gpus.end(), [](const GpuRow& x, const GpuRow& y) {
      return std::tie(x.nvml_dev, x.cuda_dev, x.pid) < std::tie(y.nvml_dev, y.cuda_dev, y.pid);
    });
    s.hosts.push_back(std::move(row));
  }
  std::sort(s.hosts.begin(), s.hosts.end(),
            [&](const HostRow& x, const HostRow& y) { return m.host_name(x.host) < m.host_name(y.host); });
  s.rails = build_rail_map(m);
  return s;
}

std::string driver_text(uint32_t v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

std::string nic_text(const NetDevice& d) {
  if (d.port >= 0) return fmt::format("[{}]{}:{}/{}", d.index, display(d.name, 32), d.port, display(d.link_layer, 16));
  return fmt::format("[{}]{}", d.index, display(d.name, 32));
}

std::string gpu_text(const GpuRow& g) {
  std::string s = g.nvml_dev >= 0 ? std::to_string(g.nvml_dev) : fmt::format("cuda{}", g.cuda_dev);
  if (g.bus_id) {
    std::string b = bdf(*g.bus_id);
    s += " " + (b.starts_with("0000:") ? b.substr(5) : b);
  }
  return s;
}

std::vector<uint32_t> primary_ranks(const HostRow& h, size_t primary) {
  std::vector<uint32_t> out;
  for (const auto& g : h.gpus) {
    for (const auto& [c, r] : g.ranks) {
      if (c == primary) out.push_back(r);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Rows with the same key are folded; returns (key, hosts) with the largest
// group first, then by first host name.
template <typename KeyFn>
std::vector<std::pair<std::string, std::vector<std::string>>> fold(const JobModel& m, const Summary& s, KeyFn key) {
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& h : s.hosts) groups[key(h)].push_back(m.host_name(h.host));
  std::vector<std::pair<std::string, std::vector<std::string>>> out(groups.begin(), groups.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.second.size() != b.second.size()) return a.second.size() > b.second.size();
    return a.second.front() < b.second.front();
  });
  return out;
}

std::string short_label(const std::string& label) {
  return label.starts_with("NET/") ? label.substr(4) : label;
}

std::string labels_text(const PairLabels& labels, bool shorten) {
  std::vector<std::string> out;
  for (const auto& [label, n] : labels) out.push_back(display(shorten ? short_label(label) : label, 24));
  return fmt::format("{}", fmt::join(out, ","));
}

void matrix_text(const JobModel& m, const Summary& s, std::string& out) {
  out += "\nTransport matrix (rows send to columns; NET/ omitted)\n";
  if (s.matrix.empty()) {
    out += "  no connection lines in the log\n";
    return;
  }
  std::vector<uint32_t> hosts;
  for (const auto& h : s.hosts) hosts.push_back(h.host);
  size_t name_w = 4;
  for (uint32_t h : hosts) name_w = std::max(name_w, std::min<size_t>(display(m.host_name(h), 24).size(), 24));
  size_t cell_w = 3;
  for (const auto& [pair, labels] : s.matrix) cell_w = std::max(cell_w, labels_text(labels, true).size());
  cell_w = std::max(cell_w, fmt::format("[{}]", hosts.size() - 1).size());
  if (hosts.size() <= 8 && 2 + name_w + 6 + hosts.size() * (cell_w + 2) <= 100) {
    out += fmt::format("  {:<{}}      ", "", name_w);
    for (size_t j = 0; j < hosts.size(); ++j) out += fmt::format("  {:<{}}", fmt::format("[{}]", j), cell_w);
    out += "\n";
    for (size_t i = 0; i < hosts.size(); ++i) {
      std::string row = fmt::format("  {:<{}} [{}]  ", display(m.host_name(hosts[i]), 24), name_w, i);
      for (size_t j = 0; j < hosts.size(); ++j) {
        auto it = s.matrix.find({hosts[i], hosts[j]});
        row += fmt::format("  {:<{}}", it == s.matrix.end() ? "." : labels_text(it->second, true), cell_w);
      }
      while (!row.empty() && row.back() == ' ') row.pop_back();
      out += row + "\n";
    }
    return;
  }
  // Too many hosts for a grid: fold hosts by what they use inside and to
  // other hosts; the biggest group is the norm, the rest are odd ones out.
  std::map<uint32_t, std::pair<PairLabels, PairLabels>> per_host;  // self, to others
  for (const auto& [pair, labels] : s.matrix) {
    auto& slot = pair.first == pair.second ? per_host[pair.first].first : per_host[pair.first].second;
    for (const auto& [label, n] : labels) slot[label] += n;
  }
  auto key = [&](const HostRow& h) {
    auto it = per_host.find(h.host);
    if (it == per_host.end()) return std::string("- | -");
    auto names = [](const PairLabels& l) {
      std::vector<std::string> v;
      for (const auto& [label, n] : l) v.push_back(display(label, 24));
      return v.empty() ? std::string("-") : fmt::format("{}", fmt::join(v, ", "));
    };
    return names(it->second.first) + " | " + names(it->second.second);
  };
  auto groups = fold(m, s, key);
  out += fmt::format("  {} hosts; hosts that use the same transports are folded\n", hosts.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    const auto& [k, names] = groups[i];
    size_t bar = k.find(" | ");
    if (i == 1) out += "  odd ones out:\n";
    out += fmt::format("  {}\n      inside: {:<14} to other hosts: {}\n", host_list(names, i == 0 ? 3 : 8),
                       k.substr(0, bar), k.substr(bar + 3));
  }
}

void rails_text(const JobModel& m, const Summary& s, std::string& out) {
  out += "\nRail map (GPU -> NIC of its inter-node links)\n";
  if (s.rails.empty()) {
    out += "  no inter-node NET connection lines in the log\n";
    return;
  }
  std::map<uint32_t, const HostRails*> by_host;
  for (const auto& r : s.rails) by_host[r.host] = &r;
  auto key = [&](const HostRow& h) {
    auto it = by_host.find(h.host);
    if (it == by_host.end()) return std::string();
    std::string k;
    std::map<std::pair<std::string, int>, size_t> gpus_per_nic;
    for (const auto& u : it->second->uses) ++gpus_per_nic[{u.net, u.dev}];
    for (const auto& u : it->second->uses) {
      std::string note = gpus_per_nic[{u.net, u.dev}] > 1 ? "shared" : "";
      if (u.pxn) note += note.empty() ? "PXN" : ", PXN";
      k += fmt::format("{}\t{}\t{}\t{}\n", u.gpu >= 0 ? std::to_string(u.gpu) : "?",
                       u.nic.starts_with("NET/") ? "-" : display(u.nic, 24), fmt::format("NET/{}/{}", display(u.net, 24), u.dev), note);
    }
    std::vector<std::string> idle;
    for (int d : it->second->idle_devs) idle.push_back(display(nic_name(m, h.host, it->second->listed->net, d), 24));
    if (!idle.empty()) k += fmt::format("idle\t{}\n", fmt::join(idle, ", "));
    return k;
  };
  auto groups = fold(m, s, key);
  for (const auto& [k, names] : groups) {
    if (k.empty()) continue;
    out += fmt::format("  {}\n", host_list(names, names.size() == s.hosts.size() ? 3 : 8));
    size_t pos = 0;
    while (pos < k.size()) {
      size_t end = k.find('\n', pos);
      std::string line = k.substr(pos, end - pos);
      pos = end + 1;
      std::vector<std::string> f;
      for (size_t a = 0, b; a <= line.size(); a = b + 1) {
        b = line.find('\t', a);
        if (b == std::string::npos) b = line.size();
        f.push_back(line.substr(a, b - a));
      }
      if (f[0] == "idle") {
        out += fmt::format("    idle NICs: {}\n", f[1]);
      } else {
        std::string row = fmt::format("    GPU {:<3} -> {:<10} {:<14} {}", f[0], f[1], f[2], f[3]);
        while (row.back() == ' ') row.pop_back();
        out += row + "\n";
      }
    }
  }
}

}  // namespace

std::string bdf(uint64_t v) {
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", v >> 20, (v >> 12) & 0xff, (v >> 4) & 0xff, v & 0xf);
}

std::string host_list(const std::vector<std::string>& hosts, size_t shown) {
  std::vector<std::string> names;
  for (size_t i = 0; i < hosts.size() && i < shown; ++i) names.push_back(display(hosts[i], 24));
  if (hosts.size() <= shown) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{}, ... ({} hosts)", fmt::join(names, ", "), hosts.size());
}

std::string render_summary_text(const JobModel& m, const std::vector<std::string>& input_errors) {
  Summary s = collect(m);
  std::string out;
  for (const auto& e : input_errors) out += fmt::format("input error: {}\n", display(e, 200));
  size_t ranks = s.primary == SIZE_MAX ? 0 : m.comms[s.primary].size();
  std::string where = fmt::format(" on {} host{}", s.hosts.size(), s.hosts.size() == 1 ? "" : "s");
  if (!s.host_unknown.empty()) where = s.hosts.empty() ? ", host unknown" : where + " and of unknown host";
  out += fmt::format("Job: {} rank{}{}, {} communicator{}\n", ranks, ranks == 1 ? "" : "s", where, m.comms.size(),
                     m.comms.size() == 1 ? "" : "s");
  auto observed = [](const std::map<std::string, std::vector<Observation>>& what) {
    std::vector<std::string> v;
    for (const auto& [name, who] : what) {
      v.push_back(fmt::format("{} ({} process{})", display(name, 32), who.size(), who.size() == 1 ? "" : "es"));
    }
    return v.empty() ? std::string("not in the log") : fmt::format("{}", fmt::join(v, ", "));
  };
  out += fmt::format("NCCL: {}\n", observed(m.versions));
  out += fmt::format("CUDA (NCCL build): {}\n", observed(m.cuda_versions));
  std::vector<std::string> drivers;
  for (const auto& [v, who] : m.driver_versions) {
    drivers.push_back(fmt::format("{} ({} process{})", driver_text(v), who.size(), who.size() == 1 ? "" : "es"));
  }
  out += fmt::format("CUDA driver: {}\n", drivers.empty() ? "not in the log" : fmt::format("{}", fmt::join(drivers, ", ")));
  out += fmt::format("Network (Using network): {}\n", observed(m.using_network));

  out += "\nHosts\n";
  if (s.hosts.empty() && s.host_unknown.empty()) out += "  no host with an Init line in the log\n";
  if (!s.host_unknown.empty()) {
    out += fmt::format("  host unknown for rank{} {}: their lines name no host\n", s.host_unknown.size() == 1 ? "" : "s",
                       format_ranges(s.host_unknown));
  }
  auto host_key = [&](const HostRow& h) {
    std::vector<std::string> gpus;
    for (const auto& g : h.gpus) gpus.push_back(gpu_text(g));
    return fmt::format("{}\t{}\t{}", h.pids.size(), primary_ranks(h, s.primary).size(), fmt::join(gpus, ", "));
  };
  if (!s.hosts.empty()) out += fmt::format("  {:<24} {:>5} {:>5}  {}\n", "HOST", "PROCS", "RANKS", "GPUS (nvmlDev busId)");
  if (s.hosts.size() <= kMaxListedHosts) {
    for (const auto& h : s.hosts) {
      std::vector<std::string> gpus;
      for (const auto& g : h.gpus) gpus.push_back(gpu_text(g));
      out += fmt::format("  {:<24} {:>5} {:>5}  {}\n", display(m.host_name(h.host), 24), h.pids.size(),
                         format_ranges(primary_ranks(h, s.primary)), fmt::join(gpus, ", "));
    }
  } else {
    for (const auto& [k, names] : fold(m, s, host_key)) {
      size_t t1 = k.find('\t');
      size_t t2 = k.find('\t', t1 + 1);
      out += fmt::format("  {}\n  {:<24} {:>5} {:>5}  {}\n", host_list(names, 4), "", k.substr(0, t1),
                         k.substr(t1 + 1, t2 - t1 - 1), k.substr(t2 + 1));
    }
  }

  out += "\nNICs (NET/<name> : Using)\n";
  if (m.host_nets.empty()) out += "  no NET/<name> : Using line in the log\n";
  std::map<std::string, std::vector<std::string>> nic_groups;  // "net\tdevices" -> hosts
  for (const auto& n : m.host_nets) {
    std::vector<std::string> devs;
    for (const auto& d : n.devices) devs.push_back(nic_text(d));
    nic_groups[fmt::format("{}\t{}", display(n.net, 16), fmt::join(devs, " "))].push_back(m.host_name(n.host));
  }
  for (auto& [k, names] : nic_groups) {
    std::sort(names.begin(), names.end());
    size_t t = k.find('\t');
    out += fmt::format("  {:<8} {}\n           on {}\n", k.substr(0, t), k.substr(t + 1), host_list(names, 4));
  }

  out += "\nCommunicators\n";
  if (m.comms.empty()) out += "  none in the log\n";
  else out += fmt::format("  {:<20} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}\n", "ID", "RANKS", "NODES", "CHANNELS", "RINGS", "TREES", "EDGES");
  for (const auto& comm : m.comms) {
    auto rings = build_rings(comm);
    auto trees = build_trees(comm);
    std::set<uint16_t> channels;
    for (const auto& e : comm.edges) channels.insert(e.channel);
    for (const auto& [ch, g] : rings) channels.insert(ch);
    std::set<uint32_t> nodes;
    for (const auto& r : comm.ranks) {
      if (r.host != kNoHost) nodes.insert(r.host);
    }
    uint32_t n_nodes = comm.nnodes ? comm.nnodes : static_cast<uint32_t>(nodes.size());
    out += fmt::format("  {:<20} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}\n", display(comm.key, 20), comm.size(), n_nodes,
                       channels.size(), rings.size(), trees.size(), comm.edges.size());
  }
  matrix_text(m, s, out);
  rails_text(m, s, out);
  return out;
}

std::string render_summary_json(const JobModel& m, const std::vector<std::string>& input_errors) {
  using nlohmann::json;
  Summary s = collect(m);
  json j;
  j["schema"] = kSummarySchema;
  j["inputs"] = json::array();
  for (const auto& f : m.files) j["inputs"].push_back(valid_utf8(f));
  j["input_errors"] = json::array();
  for (const auto& e : input_errors) j["input_errors"].push_back(valid_utf8(e));
  auto observed = [&](const std::map<std::string, std::vector<Observation>>& what, const char* key) {
    json a = json::array();
    for (const auto& [name, who] : what) a.push_back({{key, valid_utf8(name)}, {"processes", who.size()}});
    return a;
  };
  j["nccl_versions"] = observed(m.versions, "version");
  j["cuda_versions"] = observed(m.cuda_versions, "version");
  j["driver_versions"] = json::array();
  for (const auto& [v, who] : m.driver_versions) {
    j["driver_versions"].push_back({{"cuda_driver_version", v}, {"cuda", driver_text(v)}, {"processes", who.size()}});
  }
  j["networks"] = observed(m.using_network, "name");
  if (!s.host_unknown.empty()) j["host_unknown_ranks"] = s.host_unknown;
  j["hosts"] = json::array();
  for (const auto& h : s.hosts) {
    json host = {{"name", valid_utf8(m.host_name(h.host))}, {"processes", h.pids.size()}};
    host["gpus"] = json::array();
    for (const auto& g : h.gpus) {
      // A line without `host:pid:tid` has no pid to give.
      json gpu = {{"pid", is_synthetic_pid(g.pid) ? json(nullptr) : json(g.pid)}, {"cuda_dev", g.cuda_dev}};
      gpu["nvml_dev"] = g.nvml_dev >= 0 ? json(g.nvml_dev) : json();
      gpu["bus_id"] = g.bus_id ? json(bdf(*g.bus_id)) : json();
      gpu["ranks"] = json::array();
      for (const auto& [c, r] : g.ranks) gpu["ranks"].push_back({{"comm", valid_utf8(m.comms[c].key)}, {"rank", r}});
      host["gpus"].push_back(std::move(gpu));
    }
    host["nets"] = json::array();
    for (const auto& n : m.host_nets) {
      if (n.host != h.host) continue;
      json devs = json::array();
      for (const auto& d : n.devices) {
        json dev = {{"index", d.index}, {"name", d.name}};
        if (d.port >= 0) {
          dev["port"] = d.port;
          dev["link_layer"] = d.link_layer;
        } else {
          dev["address"] = d.address;
        }
        devs.push_back(std::move(dev));
      }
      host["nets"].push_back({{"net", n.net}, {"devices", std::move(devs)}});
    }
    j["hosts"].push_back(std::move(host));
  }
  j["communicators"] = json::array();
  for (const auto& comm : m.comms) {
    auto rings = build_rings(comm);
    auto trees = build_trees(comm);
    std::set<uint16_t> channels;
    for (const auto& e : comm.edges) channels.insert(e.channel);
    for (const auto& [ch, g] : rings) channels.insert(ch);
    std::set<uint32_t> nodes;
    for (const auto& r : comm.ranks) {
      if (r.host != kNoHost) nodes.insert(r.host);
    }
    j["communicators"].push_back({{"id", valid_utf8(comm.key)},
                                  {"ranks", comm.size()},
                                  {"nodes", comm.nnodes ? comm.nnodes : nodes.size()},
                                  {"channels", channels.size()},
                                  {"ring_channels", rings.size()},
                                  {"tree_channels", trees.size()},
                                  {"edges", comm.edges.size()}});
  }
  j["transport_matrix"] = json::array();
  for (const auto& [pair, labels] : s.matrix) {
    json t = json::array();
    for (const auto& [label, n] : labels) t.push_back({{"transport", valid_utf8(label)}, {"connections", n}});
    j["transport_matrix"].push_back({{"from", valid_utf8(m.host_name(pair.first))},
                                     {"to", valid_utf8(m.host_name(pair.second))},
                                     {"transports", std::move(t)}});
  }
  j["rails"] = json::array();
  for (const auto& r : s.rails) {
    json uses = json::array();
    for (const auto& u : r.uses) {
      uses.push_back({{"gpu", u.gpu >= 0 ? json(u.gpu) : json()},
                      {"net", valid_utf8(u.net)},
                      {"dev", u.dev},
                      {"nic", valid_utf8(u.nic)},
                      {"connections", u.connections},
                      {"pxn", u.pxn}});
    }
    json idle = json::array();
    for (int d : r.idle_devs) idle.push_back(valid_utf8(nic_name(m, r.host, r.listed->net, d)));
    j["rails"].push_back({{"host", valid_utf8(m.host_name(r.host))}, {"uses", std::move(uses)}, {"idle_nics", std::move(idle)}});
  }
  return j.dump(2) + "\n";
}

}  // namespace nd
