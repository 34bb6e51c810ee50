#pragma once
// ND10xx: problems of the input itself. Bad input is a finding, never an
// exception.
// Each rule is declared and defined in its own .cpp; its factory is listed
// here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_unrecognized_lines();  // ND1001
std::unique_ptr<Rule> make_malformed_lines();  // ND1002
std::unique_ptr<Rule> make_overlong_lines();  // ND1003
std::unique_ptr<Rule> make_ambiguous_communicator();  // ND1004

}  // namespace nd
