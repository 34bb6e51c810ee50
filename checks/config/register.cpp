#include "checks/config/config_rules.h"
#include "checks/registry.h"

namespace nd {

void register_config_rules(Registry& r) {
  r.add<NcclVersionMismatch>();
  r.add<CudaDriverMismatch>();
  r.add<NcclOutdated>();
  r.add<EnvForcesSlowPath>();
}

}  // namespace nd
