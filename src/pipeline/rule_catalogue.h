#pragma once
// The whole rule catalogue, for the commands that name and document rules
// (`rules`, `explain`): check's log rules plus preflight's hardware (ND4xxx)
// and cluster (ND5xxx) rules, which run on probe records instead of logs.

#include "checks/registry.h"

namespace nd {

const Registry& all_rules();

}  // namespace nd
