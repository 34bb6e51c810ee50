#include "checks/rule.h"

#include "checks/rule_fixes.h"

namespace nd {
namespace {

// Names the node in each finding of a node rule.
class NodeTagger final : public FindingSink {
 public:
  NodeTagger(const ProbedNode& node, FindingSink& out) : node_(node), out_(out) {}
  void add(Finding f) override {
    f.hosts = {node_.label};
    if (node_.snapshot->host.rank) f.ranks.push_back(*node_.snapshot->host.rank);
    out_.add(std::move(f));
  }

 private:
  const ProbedNode& node_;
  FindingSink& out_;
};

}  // namespace

void NodeRule::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& node : ctx.nodes) {
    NodeTagger tagger(node, out);
    check_node(ctx, *node.snapshot, tagger);
  }
}

Finding make_finding(const RuleInfo& info, std::string message) {
  return make_finding(info, std::move(message), info.severity);
}

Finding make_finding(const RuleInfo& info, std::string message, Severity severity) {
  Finding f;
  f.id = std::string(info.id);
  f.slug = std::string(info.slug);
  f.severity = severity;
  f.message = std::move(message);
  f.fix = std::string(rule_fix(info.id));
  return f;
}

void add_evidence(Finding& f, std::string file, std::string value) {
  f.evidence.push_back({std::move(file), 0, std::move(value)});
}

}  // namespace nd
