#pragma once
// ND50xx: the probe records of many nodes compared, and the bookkeeping of an
// aggregate run; each rule sees every node at once and reports once per
// disagreement. Each rule is declared and defined in its own .cpp; its
// factory is listed here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_node_differs_from_majority();  // ND5001
std::unique_ptr<Rule> make_record_invalid();  // ND5002
std::unique_ptr<Rule> make_nodes_missing();  // ND5003
std::unique_ptr<Rule> make_duplicate_host();  // ND5004

}  // namespace nd
