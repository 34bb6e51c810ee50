#pragma once
// ND5001 node-differs-from-majority: a node whose fabric facts differ from
// what most nodes report.

#include <string>
#include <vector>

#include "checks/cross/cluster_rule.h"

namespace nd {

// One comparable fact of a node, as text ("8x400 Gb/s"); "" = not known,
// such nodes are left out of that comparison.
struct NodeFact {
  std::string name;   // "port rates"
  Severity severity;  // how bad being the odd one out is
  std::string (*of)(const NodeSnapshot&);
};
const std::vector<NodeFact>& compared_facts();

class NodeDiffersFromMajority final : public ClusterRule {
 public:
  static constexpr RuleInfo kInfo{"ND5001", "node-differs-from-majority", Severity::Error, Needs::Hardware,
                                  "a node's fabric differs from the majority of nodes"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ClusterContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
