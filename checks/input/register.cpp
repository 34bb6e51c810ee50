#include "checks/input/input_rules.h"
#include "checks/registry.h"

namespace nd {

void register_input_rules(Registry& r) {
  r.add(make_unrecognized_lines());  // ND1001
  r.add(make_malformed_lines());  // ND1002
  r.add(make_overlong_lines());  // ND1003
  r.add(make_ambiguous_communicator());  // ND1004
}

}  // namespace nd
