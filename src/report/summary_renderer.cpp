#include "src/report/summary_renderer.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/report/gpu_tables.h"
#include "src/report/job_links.h"
#include "src/report/json_renderer.h"
#include "src/report/text_renderer.h"
#include "src/util/ranges.h"
#include "src/util/text.h"

namespace nd {
namespace {

using Labels = std::vector<std::pair<std::string, uint64_t>>;  // link label -> connections

std::string nic_text(const NetDevice& d) {
  if (d.port >= 0) return fmt::format("[{}]{}:{}/{}", d.index, display(d.name, 32), d.port, display(d.link_layer, 16));
  return fmt::format("[{}]{}", d.index, display(d.name, 32));
}

std::string gpu_text(const GpuSummary& g) {
  std::string s = g.nvml_dev >= 0 ? std::to_string(g.nvml_dev) : fmt::format("cuda{}", g.cuda_dev);
  if (g.bus_id) {
    std::string b = bdf(*g.bus_id);
    s += " " + (b.starts_with("0000:") ? b.substr(5) : b);
  }
  return s;
}

// "8 of 16 processes"; a value also printed on lines that name no process
// says so rather than count them as one.
std::string printed_text(const Printed& p, size_t processes) {
  std::string named = fmt::format("{} of {} process{}", p.processes, processes, processes == 1 ? "" : "es");
  if (!p.unnamed) return fmt::format("{} ({})", display(p.name, 32), named);
  if (p.processes == 0) return fmt::format("{} (banner without host:pid)", display(p.name, 32));
  return fmt::format("{} ({}, and a banner without host:pid)", display(p.name, 32), named);
}

std::string printed_list(const std::vector<Printed>& all, size_t processes) {
  std::vector<std::string> v;
  for (const auto& p : all) v.push_back(printed_text(p, processes));
  return v.empty() ? std::string("not in the log") : fmt::format("{}", fmt::join(v, ", "));
}

// Rows with the same key are folded; returns (key, hosts) with the largest
// group first, then by first host name.
template <typename KeyFn>
std::vector<std::pair<std::string, std::vector<std::string>>> fold(const JobSummary& s, KeyFn key) {
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& h : s.host_rows) groups[key(h)].push_back(h.name);
  std::vector<std::pair<std::string, std::vector<std::string>>> out(groups.begin(), groups.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.second.size() != b.second.size()) return a.second.size() > b.second.size();
    return a.second.front() < b.second.front();
  });
  return out;
}

std::string labels_text(const Labels& labels, bool shorten) {
  std::vector<std::string> out;
  for (const auto& [label, n] : labels) {
    out.push_back(display(shorten && label.starts_with("NET/") ? label.substr(4) : label, 24));
  }
  return fmt::format("{}", fmt::join(out, ","));
}

void job_text(const JobSummary& s, std::string& out) {
  // The counts of `check`: ranks of the largest communicator, hosts from nNodes or the log.
  std::string where = fmt::format(" on {} host{}", s.hosts, s.hosts == 1 ? "" : "s");
  if (!s.host_unknown_ranks.empty()) where = s.hosts == 0 ? ", host unknown" : where + " and of unknown host";
  out += fmt::format("Job: {}{} rank{}{}, {} communicator{}\n", s.ranks_stated || s.ranks == 0 ? "" : "at least ",
                     s.ranks, s.ranks == 1 ? "" : "s", where,
                     s.communicators, s.communicators == 1 ? "" : "s");
  out += fmt::format("NCCL: {}\n", printed_list(s.nccl_versions, s.processes));
  out += fmt::format("CUDA (NCCL build): {}\n", printed_list(s.cuda_versions, s.processes));
  std::vector<Printed> drivers;
  for (const auto& d : s.driver_versions) drivers.push_back(d.printed);
  out += fmt::format("CUDA driver: {}\n", printed_list(drivers, s.processes));
  out += fmt::format("Network (Using network): {}\n", printed_list(s.networks, s.processes));
}

void hosts_text(const JobSummary& s, std::string& out) {
  out += "\nHosts\n";
  if (s.host_rows.empty() && s.host_unknown_ranks.empty()) out += "  no host with an Init line in the log\n";
  if (!s.host_unknown_ranks.empty()) {
    out += fmt::format("  host unknown for rank{} {}: their lines name no host\n",
                       s.host_unknown_ranks.size() == 1 ? "" : "s", format_ranges(s.host_unknown_ranks));
  }
  auto gpus = [](const HostSummary& h) {
    std::vector<std::string> v;
    for (const auto& g : h.gpus) v.push_back(gpu_text(g));
    return fmt::format("{}", fmt::join(v, ", "));
  };
  if (!s.host_rows.empty()) out += fmt::format("  {:<24} {:>5} {:>5}  {}\n", "HOST", "PROCS", "RANKS", "GPUS (nvmlDev busId)");
  if (s.host_rows.size() <= kMaxListedHosts) {
    for (const auto& h : s.host_rows) {
      out += fmt::format("  {:<24} {:>5} {:>5}  {}\n", display(h.name, 24), h.processes, format_ranges(h.primary_ranks),
                         gpus(h));
    }
    return;
  }
  auto key = [&](const HostSummary& h) {
    return fmt::format("{}\t{}\t{}", h.processes, h.primary_ranks.size(), gpus(h));
  };
  for (const auto& [k, names] : fold(s, key)) {
    size_t t1 = k.find('\t');
    size_t t2 = k.find('\t', t1 + 1);
    out += fmt::format("  {}\n  {:<24} {:>5} {:>5}  {}\n", host_list(names, 4), "", k.substr(0, t1),
                       k.substr(t1 + 1, t2 - t1 - 1), k.substr(t2 + 1));
  }
}

void nics_text(const JobSummary& s, std::string& out) {
  out += "\nNICs (NET/<name> : Using)\n";
  if (s.nics.empty()) out += "  no NET/<name> : Using line in the log\n";
  std::map<std::string, std::vector<std::string>> groups;  // "net\tdevices" -> hosts
  for (const auto& n : s.nics) {
    std::vector<std::string> devs;
    for (const auto& d : n.devices) devs.push_back(nic_text(d));
    groups[fmt::format("{}\t{}", display(n.net, 16), fmt::join(devs, " "))].push_back(n.host_name);
  }
  for (auto& [k, names] : groups) {
    std::sort(names.begin(), names.end());
    size_t t = k.find('\t');
    out += fmt::format("  {:<8} {}\n           on {}\n", k.substr(0, t), k.substr(t + 1), host_list(names, 4));
  }
}

void comms_text(const JobSummary& s, std::string& out) {
  out += "\nCommunicators\n";
  if (s.comms.empty()) {
    out += "  none in the log\n";
    return;
  }
  out += fmt::format("  {:<20} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}\n", "ID", "RANKS", "NODES", "CHANNELS", "RINGS",
                     "TREES", "EDGES");
  for (const auto& c : s.comms) {
    out += fmt::format("  {:<20} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}\n", display(c.key, 20), c.nranks,
                       c.nnodes ? c.nnodes : c.hosts, c.channels, c.ring_channels, c.tree_channels, c.edges);
  }
}

void matrix_text(const JobSummary& s, std::string& out) {
  out += "\nTransport matrix (rows send to columns; NET/ omitted)\n";
  if (s.matrix.empty()) {
    out += "  no connection lines in the log\n";
    return;
  }
  std::map<std::pair<uint32_t, uint32_t>, const Labels*> cell;
  for (const auto& c : s.matrix) cell[{c.from, c.to}] = &c.transports;
  const auto& hosts = s.host_rows;
  size_t name_w = 4;
  for (const auto& h : hosts) name_w = std::max(name_w, std::min<size_t>(display(h.name, 24).size(), 24));
  size_t cell_w = 3;
  for (const auto& c : s.matrix) cell_w = std::max(cell_w, labels_text(c.transports, true).size());
  cell_w = std::max(cell_w, fmt::format("[{}]", hosts.size() - 1).size());
  if (hosts.size() <= 8 && 2 + name_w + 6 + hosts.size() * (cell_w + 2) <= 100) {
    out += fmt::format("  {:<{}}      ", "", name_w);
    for (size_t j = 0; j < hosts.size(); ++j) out += fmt::format("  {:<{}}", fmt::format("[{}]", j), cell_w);
    out += "\n";
    for (size_t i = 0; i < hosts.size(); ++i) {
      std::string row = fmt::format("  {:<{}} [{}]  ", display(hosts[i].name, 24), name_w, i);
      for (size_t j = 0; j < hosts.size(); ++j) {
        auto it = cell.find({hosts[i].host, hosts[j].host});
        row += fmt::format("  {:<{}}", it == cell.end() ? "." : labels_text(*it->second, true), cell_w);
      }
      while (!row.empty() && row.back() == ' ') row.pop_back();
      out += row + "\n";
    }
    return;
  }
  // Too many hosts for a grid: fold hosts by what they use inside and to
  // other hosts; the biggest group is the norm, the rest are odd ones out.
  std::map<uint32_t, std::pair<std::map<std::string, uint64_t>, std::map<std::string, uint64_t>>> per_host;
  for (const auto& c : s.matrix) {
    auto& slot = c.from == c.to ? per_host[c.from].first : per_host[c.from].second;
    for (const auto& [label, n] : c.transports) slot[label] += n;
  }
  auto key = [&](const HostSummary& h) {
    auto it = per_host.find(h.host);
    if (it == per_host.end()) return std::string("- | -");
    auto names = [](const std::map<std::string, uint64_t>& l) {
      std::vector<std::string> v;
      for (const auto& [label, n] : l) v.push_back(display(label, 24));
      return v.empty() ? std::string("-") : fmt::format("{}", fmt::join(v, ", "));
    };
    return names(it->second.first) + " | " + names(it->second.second);
  };
  auto groups = fold(s, key);
  out += fmt::format("  {} hosts; hosts that use the same transports are folded\n", hosts.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    const auto& [k, names] = groups[i];
    size_t bar = k.find(" | ");
    if (i == 1) out += "  odd ones out:\n";
    out += fmt::format("  {}\n      inside: {:<14} to other hosts: {}\n", host_list(names, i == 0 ? 3 : 8),
                       k.substr(0, bar), k.substr(bar + 3));
  }
}

// The rail map of one host as printed; hosts with the same text are folded.
std::string rail_text(const RailSummary& r) {
  std::string out;
  std::map<std::pair<std::string, int>, size_t> gpus_per_nic;
  for (const auto& u : r.uses) ++gpus_per_nic[{u.net, u.dev}];
  for (const auto& u : r.uses) {
    std::string note = gpus_per_nic[{u.net, u.dev}] > 1 ? "shared" : "";
    if (u.pxn) note += note.empty() ? "PXN" : ", PXN";
    std::string row = fmt::format("    GPU {:<3} -> {:<10} {:<14} {}", u.gpu >= 0 ? std::to_string(u.gpu) : "?",
                                  u.nic.starts_with("NET/") ? "-" : display(u.nic, 24),
                                  fmt::format("NET/{}/{}", display(u.net, 24), u.dev), note);
    while (row.back() == ' ') row.pop_back();
    out += row + "\n";
  }
  if (!r.idle_nics.empty()) out += fmt::format("    {}\n", idle_nics_text(r.idle_nics));
  return out;
}

void rails_text(const JobSummary& s, std::string& out) {
  out += "\nRail map (GPU -> NIC of its inter-node links)\n";
  if (s.rails.empty()) {
    out += "  no inter-node NET connection lines in the log\n";
    return;
  }
  std::map<uint32_t, const RailSummary*> by_host;
  for (const auto& r : s.rails) by_host[r.host] = &r;
  auto key = [&](const HostSummary& h) {
    auto it = by_host.find(h.host);
    return it == by_host.end() ? std::string() : rail_text(*it->second);
  };
  for (const auto& [k, names] : fold(s, key)) {
    if (k.empty()) continue;
    out += fmt::format("  {}\n{}", host_list(names, names.size() == s.host_rows.size() ? 3 : 8), k);
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

std::string render_summary_text(const JobSummary& s, const std::vector<std::string>& input_errors) {
  std::string out;
  for (const auto& e : input_errors) out += fmt::format("input error: {}\n", display(e, 200));
  job_text(s, out);
  hosts_text(s, out);
  nics_text(s, out);
  comms_text(s, out);
  matrix_text(s, out);
  rails_text(s, out);
  gpu_side_text(s.gpu_side, out);
  return out;
}

std::string render_summary_json(const JobSummary& s, const std::vector<std::string>& input_errors) {
  using nlohmann::json;
  json j;
  j["schema"] = kSummarySchema;
  j["inputs"] = json::array();
  for (const auto& f : s.files) j["inputs"].push_back(valid_utf8(f));
  j["input_errors"] = json::array();
  for (const auto& e : input_errors) j["input_errors"].push_back(valid_utf8(e));
  j["processes"] = s.processes;
  auto printed = [](const Printed& p, const char* key) {
    return json{{key, valid_utf8(p.name)}, {"processes", p.processes}, {"unnamed_lines", p.unnamed}};
  };
  auto printed_all = [&](const std::vector<Printed>& all, const char* key) {
    json a = json::array();
    for (const auto& p : all) a.push_back(printed(p, key));
    return a;
  };
  j["nccl_versions"] = printed_all(s.nccl_versions, "version");
  j["cuda_versions"] = printed_all(s.cuda_versions, "version");
  j["driver_versions"] = json::array();
  for (const auto& d : s.driver_versions) {
    json o = printed(d.printed, "cuda");
    o["cuda_driver_version"] = d.code;
    j["driver_versions"].push_back(std::move(o));
  }
  j["networks"] = printed_all(s.networks, "name");
  if (!s.host_unknown_ranks.empty()) j["host_unknown_ranks"] = s.host_unknown_ranks;
  j["hosts"] = json::array();
  for (const auto& h : s.host_rows) {
    json host = {{"name", valid_utf8(h.name)}, {"processes", h.processes}};
    host["gpus"] = json::array();
    for (const auto& g : h.gpus) {
      // A line without `host:pid:tid` has no pid to give.
      json gpu = {{"pid", g.pid_known ? json(g.pid) : json(nullptr)}, {"cuda_dev", g.cuda_dev}};
      gpu["nvml_dev"] = g.nvml_dev >= 0 ? json(g.nvml_dev) : json();
      gpu["bus_id"] = g.bus_id ? json(bdf(*g.bus_id)) : json();
      gpu["ranks"] = json::array();
      for (const auto& [c, r] : g.ranks) gpu["ranks"].push_back({{"comm", valid_utf8(s.comms[c].key)}, {"rank", r}});
      host["gpus"].push_back(std::move(gpu));
    }
    host["nets"] = json::array();
    for (size_t i : h.nics) {
      json devs = json::array();
      for (const auto& d : s.nics[i].devices) {
        json dev = {{"index", d.index}, {"name", d.name}};
        if (d.port >= 0) {
          dev["port"] = d.port;
          dev["link_layer"] = d.link_layer;
        } else {
          dev["address"] = d.address;
        }
        devs.push_back(std::move(dev));
      }
      host["nets"].push_back({{"net", s.nics[i].net}, {"devices", std::move(devs)}});
    }
    j["hosts"].push_back(std::move(host));
  }
  j["communicators"] = json::array();
  for (const auto& c : s.comms) {
    j["communicators"].push_back({{"id", valid_utf8(c.key)},
                                  {"ranks", c.nranks},
                                  {"nodes", c.nnodes ? c.nnodes : c.hosts},
                                  {"channels", c.channels},
                                  {"connected_channels", c.connected_channels},
                                  {"ring_channels", c.ring_channels},
                                  {"tree_channels", c.tree_channels},
                                  {"edges", c.edges}});
  }
  j["transport_matrix"] = json::array();
  for (const auto& c : s.matrix) {
    json t = json::array();
    for (const auto& [label, n] : c.transports) t.push_back({{"transport", valid_utf8(label)}, {"connections", n}});
    j["transport_matrix"].push_back(
        {{"from", valid_utf8(c.from_name)}, {"to", valid_utf8(c.to_name)}, {"transports", std::move(t)}});
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
    for (const auto& n : r.idle_nics) idle.push_back(valid_utf8(n));
    j["rails"].push_back({{"host", valid_utf8(r.name)},
                          {"uses", std::move(uses)},
                          {"whole", r.whole},
                          {"idle_nics", std::move(idle)}});
  }
  add_gpu_side(s.gpu_side, j, false);
  return j.dump(2) + "\n";
}

}  // namespace nd
