#pragma once
// ND21xx: rail alignment, which NIC each GPU's inter-node traffic uses.
// Each rule is declared and defined in its own .cpp; its factory is listed
// here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_rail_shared_nic();  // ND2100
std::unique_ptr<Rule> make_cross_rail_traffic();  // ND2101

}  // namespace nd
