#include "src/pipeline/preflight.h"

#include <algorithm>
#include <iterator>
#include <map>

#include <fmt/format.h>

#include "checks/registry.h"
#include "src/model/job_model.h"

namespace nd {
namespace {

PreflightStatus status_of(const std::vector<Finding>& findings) {
  PreflightStatus s = PreflightStatus::Ok;
  for (const auto& f : findings) {
    if (f.severity == Severity::Error) return PreflightStatus::Critical;
    if (f.severity == Severity::Warning) s = PreflightStatus::Warning;
  }
  return s;
}

// Runs every rule that reads `needs`, in ID order.
void run_rules(Needs needs, const CheckContext& ctx, std::vector<Finding>& out) {
  FindingList sink;
  for (const auto& rule : all_rules().rules()) {
    if (rule->info().needs == needs) rule->check(ctx, sink);
  }
  std::move(sink.findings.begin(), sink.findings.end(), std::back_inserter(out));
}

std::vector<ProbedNode> probed(const std::vector<PreflightNode>& nodes) {
  std::vector<ProbedNode> out;
  for (const auto& n : nodes) out.push_back({n.label, &n.snapshot});
  return out;
}

// Drain reasons end up in `scontrol show node` and sinfo: keep them short,
// one line, and free of characters a shell wrapper would have to quote.
std::string sanitize(const std::string& in) {
  std::string s;
  for (char c : in) {
    if (c == '\n' || c == '\r' || c == '\t') {
      s += ' ';
    } else if (c != '"' && c != '\'' && c != '`' && c != '$' && c != '\\') {
      s += c;
    }
  }
  constexpr size_t kMax = 200;
  if (s.size() > kMax) s = s.substr(0, kMax - 3) + "...";
  return s;
}

void finish(PreflightReport& r) {
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.id != b.id) return a.id < b.id;
    return a.hosts < b.hosts;
  });
  for (auto& n : r.nodes) {
    std::vector<Finding> mine;
    for (const auto& f : r.findings) {
      if (std::find(f.hosts.begin(), f.hosts.end(), n.label) != f.hosts.end()) mine.push_back(f);
    }
    n.status = status_of(mine);
  }
  if (!r.unknown_reason.empty()) {
    r.status = PreflightStatus::Unknown;
    r.reason = sanitize("nccl-doctor: " + r.unknown_reason);
    return;
  }
  r.status = status_of(r.findings);
  size_t counted = 0;
  const Finding* first = nullptr;
  for (const auto& f : r.findings) {
    if (f.severity == Severity::Info) continue;
    if (first == nullptr) first = &f;
    ++counted;
  }
  if (first == nullptr) {
    r.reason = r.aggregate ? fmt::format("nccl-doctor: {} node(s) OK", r.nodes.size()) : "nccl-doctor: fabric OK";
    return;
  }
  std::string where = r.aggregate && !first->hosts.empty() && first->id.starts_with("ND4") ? first->hosts[0] + ": " : "";
  r.reason = sanitize(fmt::format("nccl-doctor {}: {}{}{}", first->id, where, first->message,
                                  counted > 1 ? fmt::format(" (+{} more)", counted - 1) : ""));
}

}  // namespace

PreflightReport preflight_local(NodeSnapshot node, const Expectations& expect) {
  PreflightReport r;
  r.expect = expect;
  std::string label = node.host.host.empty() ? "localhost" : node.host.host;
  r.nodes.push_back({label, std::move(node), PreflightStatus::Ok});
  // Preflight reads no log: the rules see an empty job model.
  JobModel no_log;
  CheckOptions options;
  options.expect = expect;
  std::vector<ProbedNode> nodes = probed(r.nodes);
  run_rules(Needs::Node, {no_log, options, nodes}, r.findings);
  finish(r);
  return r;
}

PreflightReport preflight_aggregate(RecordSet records, const Expectations& expect, std::string source,
                                    bool local_rules) {
  PreflightReport r;
  r.aggregate = true;
  r.source = std::move(source);
  r.expect = expect;
  r.record_problems = records.problems.size();
  std::map<std::string, int> per_host;
  for (const auto& rec : records.records) ++per_host[rec.node.host.host];
  for (auto& rec : records.records) {
    std::string label = rec.node.host.host.empty() ? fmt::format("line{}", rec.line) : rec.node.host.host;
    if (per_host[rec.node.host.host] > 1) {
      auto rank = rec.node.host.rank ? rec.node.host.rank : rec.launcher_rank;
      label += rank ? fmt::format("#{}", *rank) : fmt::format("@line{}", rec.line);
    }
    r.nodes.push_back({label, std::move(rec.node), PreflightStatus::Ok});
  }
  JobModel no_log;
  CheckOptions options;
  options.expect = expect;
  std::vector<ProbedNode> nodes = probed(r.nodes);
  const CheckContext ctx{no_log, options, nodes, records.problems, r.source};
  if (local_rules) run_rules(Needs::Node, ctx, r.findings);
  run_rules(Needs::Cluster, ctx, r.findings);
  if (r.nodes.empty()) {
    r.unknown_reason = records.problems.empty()
                           ? fmt::format("no probe records in {} ({} lines)", r.source, records.lines)
                           : fmt::format("no usable probe records in {} ({} rejected)", r.source,
                                         records.problems.size());
  }
  finish(r);
  return r;
}

}  // namespace nd
