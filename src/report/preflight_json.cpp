#include <nlohmann/json.hpp>

#include "src/report/preflight_output.h"
#include "src/probe/snapshot_json.h"

namespace nd {

std::string render_preflight_json(const PreflightReport& r) {
  nlohmann::ordered_json j;
  j["schema"] = "nccl-doctor.preflight/1";
  j["status"] = preflight_status_str(r.status);
  j["exit_code"] = static_cast<int>(r.status);
  j["reason"] = r.reason;
  j["aggregate"] = r.aggregate;
  if (r.aggregate) j["source"] = r.source;
  j["expect"] = expectations_str(r.expect);
  j["nodes"] = nlohmann::ordered_json::array();
  for (const auto& n : r.nodes) {
    nlohmann::ordered_json node;
    node["label"] = n.label;
    node["host"] = n.snapshot.host.host;
    node["rank"] = n.snapshot.host.rank ? nlohmann::ordered_json(*n.snapshot.host.rank) : nlohmann::ordered_json();
    node["status"] = preflight_status_str(n.status);
    j["nodes"].push_back(std::move(node));
  }
  j["findings"] = nlohmann::ordered_json::array();
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) {
    ++counts[static_cast<int>(f.severity)];
    nlohmann::ordered_json o;
    o["id"] = f.id;
    o["slug"] = f.slug;
    o["severity"] = severity_name(f.severity);
    o["message"] = f.message;
    o["hosts"] = f.hosts;
    o["evidence"] = nlohmann::ordered_json::array();
    for (const auto& e : f.evidence) {
      nlohmann::ordered_json ev;
      ev["file"] = e.file;
      if (e.line != 0) ev["line"] = e.line;
      ev["text"] = e.text;
      o["evidence"].push_back(std::move(ev));
    }
    if (!f.fix.empty()) o["fix"] = f.fix;
    j["findings"].push_back(std::move(o));
  }
  j["summary"] = {{"nodes", r.nodes.size()}, {"errors", counts[2]}, {"warnings", counts[1]},
                  {"notes", counts[0]}, {"rejected_records", r.record_problems}};
  // Invalid UTF-8 from a hostile record must not make dump() throw.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace nd
