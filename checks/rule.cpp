#include "checks/rule.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/rule_fixes.h"
#include "src/util/ranges.h"

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

std::string names_text(const std::vector<std::string>& names, const CheckOptions& options) {
  constexpr size_t kNamed = 3;
  if (options.full_lists || names.size() <= kNamed + 1) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{} and {} more", fmt::join(names.begin(), names.begin() + kNamed, ", "), names.size() - kNamed);
}

std::string ranges_text(const std::vector<uint32_t>& values, int width, const CheckOptions& options) {
  constexpr size_t kTerminalShare = 48;
  return options.full_lists ? format_ranges(values, width) : format_ranges_brief(values, width, kTerminalShare);
}

void add_evidence(Finding& f, std::string file, std::string value) {
  f.evidence.push_back({std::move(file), 0, std::move(value)});
}

}  // namespace nd
