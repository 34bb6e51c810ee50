#pragma once
// JUnit XML output of `check` for CI dashboards: one <testsuite> for
// job-wide findings and one per communicator, one <testcase> per enabled
// rule in each; <failure> for findings at or above --fail-on, <skipped> when
// the log cannot decide the rule (inconclusive). Everything comes from the
// report as judged: findings, gaps, rule states.

#include <string>

#include "src/report/check_report.h"

namespace nd {

std::string render_junit(const CheckReport& report);

}  // namespace nd
