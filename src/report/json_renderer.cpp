#include "src/report/json_renderer.h"

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
  return j;
}

json report_json(const CheckReport& r) {
  const JobSummary& s = r.summary;
  json comms = json::array();
  for (const auto& c : s.comms) {
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
                     {"synthetic", c.synthetic}});
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
  return out;
}

std::string render_json(const CheckReport& report) {
  return report_json(report).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace nd
