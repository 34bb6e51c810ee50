#pragma once
// The rule pages man/rules/NDxxxx.md, embedded at build time by
// man/gen_rules.py so that `explain` works from an installed binary.

#include <span>
#include <string_view>

namespace nd {

struct RulePage {
  std::string_view id;    // "ND3001"
  std::string_view text;  // the Markdown page
};

// Sorted by ID.
std::span<const RulePage> rule_pages();

// The page of rule `id`, nullptr when none was embedded.
const RulePage* find_rule_page(std::string_view id);

}  // namespace nd
