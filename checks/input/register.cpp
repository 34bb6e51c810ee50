#include "checks/input/input_rules.h"
#include "checks/registry.h"

namespace nd {

void register_input_rules(Registry& r) {
  r.add<UnrecognizedLines>();
  r.add<MalformedLines>();
  r.add<OverlongLines>();
  r.add<AmbiguousCommunicator>();
}

}  // namespace nd
