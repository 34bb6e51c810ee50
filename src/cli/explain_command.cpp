#include "src/cli/explain_command.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "src/cli/rule_pages.h"
#include "src/pipeline/pipeline.h"

namespace nd {

const RulePage* find_rule_page(std::string_view id) {
  auto pages = rule_pages();
  auto it = std::lower_bound(pages.begin(), pages.end(), id, [](const RulePage& p, std::string_view v) { return p.id < v; });
  return it != pages.end() && it->id == id ? &*it : nullptr;
}

std::string explain_rule(const Registry& registry, std::string_view name, std::string& error, std::string* note) {
  const RuleInfo* rule = registry.find(name);
  if (!rule) {
    // A word of a slug ("socket") shows the most severe rule it names.
    auto mentioning = registry.rules_mentioning(name);
    if (!mentioning.empty()) {
      rule = mentioning.front();
      std::string others;
      for (size_t i = 1; i < mentioning.size(); ++i) {
        others += fmt::format("{}{} {}", i == 1 ? "; also " : ", ", mentioning[i]->id, mentioning[i]->slug);
      }
      if (note != nullptr) *note = fmt::format("'{}': {} {}{}", name, rule->id, rule->slug, others);
    }
  }
  if (!rule) {
    const RuleInfo* near = registry.suggest(name);
    error = near ? fmt::format("unknown rule '{}'; did you mean {} ({})?", name, near->id, near->slug)
                 : fmt::format("unknown rule '{}'; 'nccl-doctor rules' lists them", name);
    return {};
  }
  const RuleInfo& info = *rule;
  if (const RulePage* page = find_rule_page(info.id)) return std::string(page->text);
  // Every rule has a page (the catalogue test enforces it); a build from a
  // stale configuration may still lack a new one.
  return fmt::format("# {} {}\n\nSeverity: {}\n\n## Summary\n{}\n\n(no documentation page was built into this "
                     "binary)\n",
                     info.id, info.slug, severity_name(info.severity), info.summary);
}

void add_explain_command(CLI::App& app, int& exit_code) {
  auto name = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("explain", "Print a rule's documentation page");
  cmd->add_option("rule", *name, "Rule ID (ND3001) or slug (inter-node-socket)")->required()->type_name("ID|SLUG");
  cmd->callback([name, &exit_code] {
    std::string error, note;
    std::string page = explain_rule(all_rules(), *name, error, &note);
    if (!error.empty()) throw CLI::ValidationError(error);
    if (!note.empty()) fmt::print(stderr, "nccl-doctor: {}\n", note);
    exit_code = write_stdout(page) ? 0 : 2;
  });
}

}  // namespace nd
