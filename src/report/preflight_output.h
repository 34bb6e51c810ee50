#pragma once
// The four renderings of a preflight report. Each is pinned by golden tests.

#include <string>

#include "src/report/preflight_report.h"

namespace nd {

// First line Nagios style ("NCCL-DOCTOR CRITICAL - <reason>"), then one
// finding per line with its evidence, then a summary.
std::string render_preflight_text(const PreflightReport& r);
// "nccl-doctor.preflight/1".
std::string render_preflight_json(const PreflightReport& r);
// One <testsuite> per node (one <testcase> per rule) plus one for the cluster.
std::string render_preflight_junit(const PreflightReport& r);
// node_exporter textfile collector format.
std::string render_preflight_prometheus(const PreflightReport& r);

}  // namespace nd
