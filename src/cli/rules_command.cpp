#include "src/cli/rules_command.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checks/rule_fixes.h"
#include "src/cli/enum_option.h"
#include "src/pipeline/pipeline.h"

namespace nd {

std::string render_rules_text(const Registry& registry, const RuleSelection& selection) {
  size_t slug_width = 4;
  for (const RuleInfo* r : registry.infos()) slug_width = std::max(slug_width, r->slug.size());
  std::string out = fmt::format("{:<6}  {:<{}}  {:<8}  {}\n", "ID", "slug", slug_width, "severity", "summary");
  for (const RuleInfo* r : registry.infos()) {
    const RuleInfo& info = *r;
    if (!selection.enabled(info.id)) continue;
    out += fmt::format("{:<6}  {:<{}}  {:<8}  {}\n", info.id, info.slug, slug_width, severity_name(info.severity),
                       info.summary);
  }
  return out;
}

std::string render_rules_json(const Registry& registry, const RuleSelection& selection) {
  nlohmann::json rules = nlohmann::json::array();
  for (const RuleInfo* r : registry.infos()) {
    const RuleInfo& info = *r;
    if (!selection.enabled(info.id)) continue;
    nlohmann::json aliases = nlohmann::json::array();
    for (auto a : registry.aliases_of(info.id)) aliases.push_back(a);
    // Schema nccl-doctor.rules/1 knows "log" and "hardware": node and cluster
    // rules both read probe records.
    rules.push_back({{"id", info.id},
                     {"slug", info.slug},
                     {"severity", severity_name(info.severity)},
                     {"needs", info.needs == Needs::Log ? "log" : "hardware"},
                     {"summary", info.summary},
                     {"family", rule_family(info.id)},
                     {"fix", rule_fix(info.id)},
                     {"aliases", aliases}});
  }
  nlohmann::json doc = {{"schema", "nccl-doctor.rules/1"}, {"rules", rules}};
  return doc.dump(2) + "\n";
}

namespace {

enum class RulesFormat : uint8_t { Text, Json };

}  // namespace

void add_rules_command(CLI::App& app, int& exit_code) {
  auto format = std::make_shared<RulesFormat>(RulesFormat::Text);
  CLI::App* cmd = app.add_subcommand("rules", "List the rules: ID, slug, default severity, summary");
  add_enum_option<RulesFormat>(cmd, "-f,--format", *format, {{"text", RulesFormat::Text}, {"json", RulesFormat::Json}},
                               "Output format");
  cmd->callback([format, &exit_code] {
    RuleSelection all;
    std::string out = *format == RulesFormat::Json ? render_rules_json(all_rules(), all)
                                                   : render_rules_text(all_rules(), all);
    exit_code = write_stdout(out) ? 0 : 2;
  });
}

}  // namespace nd
