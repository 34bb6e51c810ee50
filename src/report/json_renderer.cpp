#include "src/report/json_renderer.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace nd {

using nlohmann::json;

json finding_json(const Finding& f) {
  json evidence = json::array();
  for (const auto& e : f.evidence) evidence.push_back({{"file", e.file}, {"line", e.line}, {"text", e.text}});
  json j = {{"id", f.id},
            {"slug", f.slug},
            {"severity", severity_name(f.severity)},
            {"message", f.message},
            {"hosts", f.hosts},
            {"ranks", f.ranks},
            {"channels", f.channels},
            {"evidence", evidence}};
  if (!f.comm.empty()) j["communicator"] = f.comm;
  if (!f.related.empty()) j["related"] = f.related;
  if (!f.fix.empty()) j["fix"] = f.fix;
  return j;
}

namespace {

json optional_json(const auto& v) { return v ? json(*v) : json(); }

json gpus_json(const std::vector<GpuRow>& gpus) {
  json out = json::array();
  for (const auto& g : gpus) {
    json processes = json::array();
    for (const auto& p : g.processes) {
      processes.push_back({{"pid", optional_json(p.pid)}, {"mem_mib", optional_json(p.mem_mib)},
                           {"type", p.type.empty() ? json() : json(p.type)}});
    }
    out.push_back({{"host", g.host.empty() ? json() : json(g.host)},
                   {"index", optional_json(g.index)},
                   {"name", g.name.empty() ? json() : json(g.name)},
                   {"bus_id", g.bus_id.empty() ? json() : json(g.bus_id)},
                   {"samples", g.samples},
                   {"util_mean", optional_json(g.util_mean)},
                   {"util_max", optional_json(g.util_max)},
                   {"mem_used_mib", optional_json(g.mem_used_mib)},
                   {"mem_total_mib", optional_json(g.mem_total_mib)},
                   {"power_max_w", optional_json(g.power_max_w)},
                   {"processes", processes}});
  }
  return out;
}

json topology_json(const std::vector<TopologyRow>& rows) {
  json out = json::array();
  for (const auto& t : rows) {
    json nearest = json::object();
    for (const auto& [gpu, n] : t.nearest_nic) nearest[gpu] = {{"nic", n.nic}, {"path", n.path}};
    out.push_back({{"host", t.host.empty() ? json() : json(t.host)},
                   {"gpus", t.gpus},
                   {"nics", t.nics},
                   {"links", t.links},
                   {"nearest_nic", nearest}});
  }
  return out;
}

json nccl_tests_json(const std::vector<NcclTestsSummary>& runs) {
  json out = json::array();
  for (const auto& t : runs) {
    out.push_back({{"op", t.op.empty() ? json() : json(t.op)},
                   {"ranks", t.ranks},
                   {"hosts", t.hosts},
                   {"rows", t.rows},
                   {"max_busbw_gbs", optional_json(t.max_busbw_gbs)},
                   {"max_busbw_bytes", optional_json(t.max_busbw_bytes)},
                   {"avg_busbw_gbs", optional_json(t.avg_busbw_gbs)},
                   {"wrong", t.wrong}});
  }
  return out;
}

}  // namespace

void add_gpu_side(const GpuSideSummary& g, json& out, bool with_inputs) {
  bool other = std::any_of(g.inputs.begin(), g.inputs.end(),
                           [](const InputKind& k) { return k.kind != "nccl-log" && k.kind != "bindings"; });
  if (!other) return;
  if (with_inputs) {
    json inputs = json::array();
    for (const auto& k : g.inputs) inputs.push_back({{"path", k.path}, {"kind", k.kind}});
    out["inputs"] = inputs;
  }
  out["gpus"] = gpus_json(g.gpus);
  out["topology"] = topology_json(g.topology);
  out["nccl_tests"] = nccl_tests_json(g.nccl_tests);
  if (!g.probe_records.empty()) {
    json records = json::array();
    for (const auto& r : g.probe_records) {
      records.push_back({{"host", r.host.empty() ? json() : json(r.host)}, {"path", r.path}, {"line", r.line}});
    }
    out["probe_records"] = records;
  }
}

namespace {

// Each placed rank of each communicator: its host and GPU, by rank.
std::vector<json> comm_ranks(const JobSummary& s) {
  std::vector<std::map<uint32_t, json>> by_comm(s.comms.size());
  for (const auto& h : s.host_rows) {
    for (const auto& g : h.gpus) {
      for (const auto& [c, rank] : g.ranks) {
        if (c >= by_comm.size()) continue;
        by_comm[c][rank] = {{"rank", rank},
                            {"host", h.name},
                            {"cuda_dev", g.cuda_dev >= 0 ? json(g.cuda_dev) : json()},
                            {"nvml_dev", g.nvml_dev >= 0 ? json(g.nvml_dev) : json()}};
      }
    }
  }
  std::vector<json> out;
  for (auto& ranks : by_comm) {
    json list = json::array();
    for (auto& [rank, j] : ranks) list.push_back(std::move(j));
    out.push_back(std::move(list));
  }
  return out;
}

json links_json(const std::vector<ChannelLink>& links) {
  json out = json::array();
  for (const auto& l : links) {
    out.push_back({{"channel", l.channel},
                   {"from", l.from_name},
                   {"to", l.to_name},
                   {"transport", l.label},
                   {"connections", l.connections}});
  }
  return out;
}

// The NICs each host's inter-node connection lines use ("mlx5_0", or
// "NET/IB/0" where the host listed no devices), by host name.
json nics_used_json(const std::vector<RailSummary>& rails) {
  json out = json::array();
  for (const auto& rail : rails) {
    std::set<std::pair<std::string, std::string>> nics;
    for (const auto& u : rail.uses) {
      nics.insert({u.net, u.nic.empty() ? fmt::format("NET/{}/{}", u.net, u.dev) : u.nic});
    }
    json list = json::array();
    for (const auto& [net, nic] : nics) list.push_back({{"net", net}, {"nic", nic}});
    out.push_back({{"host", rail.name}, {"nics", list}});
  }
  return out;
}

json settings_json(const std::vector<SettingSummary>& settings) {
  json out = json::array();
  for (const auto& e : settings) out.push_back({{"name", e.name}, {"value", e.value}, {"hosts", e.hosts}});
  return out;
}

}  // namespace

json report_json(const CheckReport& r) {
  const JobSummary& s = r.summary;
  json comms = json::array();
  std::vector<json> ranks = comm_ranks(s);
  for (size_t i = 0; i < s.comms.size(); ++i) {
    const CommSummary& c = s.comms[i];
    // nnodes is null where NCCL did not print it: 0 would read as no node.
    comms.push_back({{"id", c.key},
                     {"nranks", c.nranks},
                     {"nnodes", c.nnodes ? json(c.nnodes) : json()},
                     {"hosts", c.hosts},
                     {"channels", c.channels},
                     {"connected_channels", c.connected_channels},
                     {"ring_channels", c.ring_channels},
                     {"tree_channels", c.tree_channels},
                     {"edges", c.edges},
                     {"synthetic", c.synthetic},
                     {"ranks", std::move(ranks[i])},
                     {"links", links_json(c.links)}});
  }
  json idle = json::array();
  for (const auto& rail : s.rails) {
    if (!rail.idle_nics.empty()) idle.push_back({{"host", rail.name}, {"nics", rail.idle_nics}});
  }
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(finding_json(f));
  json gaps = json::array();
  json not_checked = json::array();
  for (const auto& g : r.gaps) (g.blocks_verdict ? gaps : not_checked).push_back({{"reason", g.reason}, {"rerun", g.rerun}});
  const Coverage& cov = s.coverage;
  json out = {
      {"schema", kCheckSchema},
      {"verdict", verdict_name(r.verdict)},
      {"summary",
       {{"hosts", s.hosts},
        {"ranks", s.ranks},
        {"communicators", s.communicators},
        {"nccl_versions", names(s.nccl_versions)},
        {"transports",
         {{"intra", s.intra}, {"inter", s.inter}, {"inter_families", s.inter_families}, {"inter_from", s.inter_from}}},
        {"gdr", s.gdr},
        {"networks", names(s.networks)},
        {"idle_nics", idle},
        {"nics_used", nics_used_json(s.rails)},
        {"settings", settings_json(s.settings)},
        {"lines", s.counters.lines},
        {"nccl_lines", s.counters.nccl_lines},
        {"unrecognized_lines", s.counters.unknown_lines},
        {"files", s.files}}},
      {"coverage",
       {{"hosts_seen", cov.hosts_seen},
        {"hosts_announced", cov.hosts_announced},
        {"ranks_seen", cov.ranks_seen},
        {"ranks_announced", cov.ranks_announced},
        {"channels", cov.channels},
        {"not_checked", not_checked}}},
      {"communicators", comms},
      {"findings", findings},
      {"inconclusive", gaps},
      {"input_errors", r.input_errors},
  };
  // Present when some lines name no host, like `communicator` in a finding.
  if (s.host_unknown_processes > 0) out["summary"]["host_unknown_processes"] = s.host_unknown_processes;
  add_gpu_side(s.gpu_side, out, true);
  return out;
}

std::string render_json(const CheckReport& report) {
  return report_json(report).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace nd
