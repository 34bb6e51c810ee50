#pragma once
// Cluster (ND5xxx) rules compare the probe records of many nodes; they see
// every node at once and report once per disagreement.

#include <memory>
#include <string>
#include <vector>

#include "checks/rule.h"
#include "src/probe/expectations.h"
#include "src/probe/node_snapshot.h"
#include "src/probe/record_reader.h"

namespace nd {

struct ClusterNode {
  std::string label;  // host, or host#rank when a host sent several records
  const NodeSnapshot* snapshot;
};

struct ClusterContext {
  const std::vector<ClusterNode>& nodes;
  const std::vector<RecordProblem>& problems;
  const Expectations& expect;
  std::string source;  // input name for evidence ("-" for stdin)
};

class ClusterRule {
 public:
  virtual ~ClusterRule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const ClusterContext& ctx, FindingSink& out) const = 0;
};

Finding cluster_finding(const RuleInfo& info, std::string message, Severity severity);

// All ND5xxx rules, sorted by ID.
const std::vector<std::unique_ptr<ClusterRule>>& cluster_rules();

}  // namespace nd
