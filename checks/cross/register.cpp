#include "checks/cross/cross_rules.h"
#include "checks/registry.h"

namespace nd {

void register_cross_rules(Registry& r) {
  r.add(make_node_differs_from_majority());  // ND5001
  r.add(make_record_invalid());  // ND5002
  r.add(make_nodes_missing());  // ND5003
  r.add(make_duplicate_host());  // ND5004
}

}  // namespace nd
