// ND5002-ND5004 are small enough to share a file with the registry.
#include "checks/cross/cluster_rule.h"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/cross/node_differs_from_majority.h"
#include "checks/cross/record_invalid.h"

namespace nd {

Finding cluster_finding(const RuleInfo& info, std::string message, Severity severity) {
  Finding f;
  f.id = std::string(info.id);
  f.slug = std::string(info.slug);
  f.severity = severity;
  f.message = std::move(message);
  return f;
}

void RecordInvalid::check(const ClusterContext& ctx, FindingSink& out) const {
  for (const auto& p : ctx.problems) {
    Finding f = cluster_finding(kInfo, fmt::format("record at line {} ignored: {}", p.line, p.error), kInfo.severity);
    f.evidence.push_back({ctx.source, p.line, p.excerpt});
    out.add(std::move(f));
  }
}

void NodesMissing::check(const ClusterContext& ctx, FindingSink& out) const {
  if (!ctx.expect.nodes || ctx.nodes.size() >= *ctx.expect.nodes) return;
  out.add(cluster_finding(kInfo, fmt::format("{} node record(s), expected {}: the missing nodes did not run the probe "
                                             "or their output was lost", ctx.nodes.size(), *ctx.expect.nodes),
                          kInfo.severity));
}

void DuplicateHost::check(const ClusterContext& ctx, FindingSink& out) const {
  std::map<std::string, int> per_host;
  for (const auto& n : ctx.nodes) ++per_host[n.snapshot->host.host];
  for (const auto& [host, count] : per_host) {
    if (count < 2) continue;
    Finding f = cluster_finding(kInfo, fmt::format("host {} sent {} records: run one probe per node (srun "
                                                   "--ntasks-per-node=1, mpirun --map-by ppr:1:node)", host, count),
                                kInfo.severity);
    f.hosts.push_back(host);
    out.add(std::move(f));
  }
}

const std::vector<std::unique_ptr<ClusterRule>>& cluster_rules() {
  static const auto* rules = [] {
    auto* v = new std::vector<std::unique_ptr<ClusterRule>>();
    v->push_back(std::make_unique<NodeDiffersFromMajority>());
    v->push_back(std::make_unique<RecordInvalid>());
    v->push_back(std::make_unique<NodesMissing>());
    v->push_back(std::make_unique<DuplicateHost>());
    return v;
  }();
  return *rules;
}

}  // namespace nd
