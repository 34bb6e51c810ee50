#include "checks/gpu/gpu_rules.h"
#include "checks/registry.h"

namespace nd {

void register_gpu_rules(Registry& r) {
}

}  // namespace nd
