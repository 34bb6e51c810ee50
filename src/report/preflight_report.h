#pragma once
// What `preflight` concludes about one node or a cluster of records: the
// findings of the hardware and cluster rules, a Nagios-style status and a
// one-line drain reason. Built by src/pipeline/preflight.h, rendered by
// preflight_output.h.

#include <string>
#include <vector>

#include "checks/finding.h"
#include "src/probe/expectations.h"
#include "src/probe/node_snapshot.h"

namespace nd {

// Exit statuses, Nagios plugin convention (also what Slurm's
// HealthCheckProgram and NHC-style wrappers expect).
enum class PreflightStatus : int { Ok = 0, Warning = 1, Critical = 2, Unknown = 3 };
std::string preflight_status_str(PreflightStatus s);  // "OK", "WARNING", "CRITICAL", "UNKNOWN"

struct PreflightNode {
  std::string label;  // host, or host#rank when a host sent several records
  NodeSnapshot snapshot;
  PreflightStatus status = PreflightStatus::Ok;
};

struct PreflightReport {
  bool aggregate = false;
  std::string source;  // aggregate input name
  Expectations expect;
  std::vector<PreflightNode> nodes;
  std::vector<Finding> findings;  // most severe first, then by ID and host
  size_t record_problems = 0;
  std::string unknown_reason;  // set when nothing could be judged
  PreflightStatus status = PreflightStatus::Ok;
  std::string reason;  // one line, no quotes or newlines: safe for scontrol
};

}  // namespace nd
