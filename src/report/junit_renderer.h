#pragma once
// JUnit XML output of `check` for CI dashboards: one <testsuite> for
// job-wide findings and one per communicator, one <testcase> per enabled
// rule in each; <failure> for findings at or above --fail-on, <skipped> when
// the log cannot decide the rule (inconclusive).

#include <string>
#include <string_view>

#include "checks/registry.h"
#include "src/report/check_report.h"

namespace nd {

std::string render_junit(const CheckReport& report, const Registry& registry, const RuleSelection& selection,
                         FailOn fail_on);

// Escapes text for XML 1.0 content and attribute values: & < > " ' become
// entities; tab, LF and CR become character references (attributes keep
// them); other control characters, which XML 1.0 cannot carry even as
// references, and invalid UTF-8 bytes become the visible text "\xNN".
std::string xml_escape(std::string_view s);

}  // namespace nd
