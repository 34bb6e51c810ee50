#pragma once
// `nccl-doctor rules` (and `check --list-rules`): the rule catalogue as a
// table or as JSON.

#include <string>

#include <CLI/CLI.hpp>

#include "checks/registry.h"

namespace nd {

void add_rules_command(CLI::App& app, int& exit_code);

// One line per rule: ID, slug, default severity, summary; only the rules
// that `selection` enables.
std::string render_rules_text(const Registry& registry, const RuleSelection& selection);
// {"schema": "nccl-doctor.rules/1", "rules": [{"id", "slug", "severity",
//  "needs", "summary", "aliases"}]}
std::string render_rules_json(const Registry& registry, const RuleSelection& selection);

}  // namespace nd
