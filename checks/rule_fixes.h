#pragma once
// Each rule's one-line fix, from the `Fix:` line of its page
// (man/rules/NDxxxx.md), generated at build time.

#include <string_view>

namespace nd {

// Empty for an ID without a page.
std::string_view rule_fix(std::string_view id);

}  // namespace nd
