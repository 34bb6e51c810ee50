#pragma once
// `nccl-doctor preflight`: runs the hardware rules on one node (or on every
// record of an aggregate) and the cluster rules across records, and turns the
// findings into a status and a drain reason (src/report/preflight_report.h).

#include <string>

#include "src/probe/expectations.h"
#include "src/probe/node_snapshot.h"
#include "src/probe/record_reader.h"
#include "src/report/preflight_report.h"

namespace nd {

PreflightReport preflight_local(NodeSnapshot node, const Expectations& expect);
// local_rules: also judge each record with the ND4xxx rules.
PreflightReport preflight_aggregate(RecordSet records, const Expectations& expect, std::string source,
                                    bool local_rules);

}  // namespace nd
