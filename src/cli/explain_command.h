#pragma once
// `nccl-doctor explain ID|slug`: prints a rule's documentation page.

#include <string>

#include <CLI/CLI.hpp>

#include "checks/registry.h"

namespace nd {

void add_explain_command(CLI::App& app, int& exit_code);

// The page text for `name` (ID, slug or alias), or an error text in `error`
// ("unknown rule 'x'; did you mean ND3001 (inter-node-socket)?"). A word of
// slugs ("socket") gives the most severe rule's page, and `note` names it
// and the others.
std::string explain_rule(const Registry& registry, std::string_view name, std::string& error,
                         std::string* note = nullptr);

}  // namespace nd
