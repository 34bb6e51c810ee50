#pragma once
// Human output of `check`: a summary line, findings grouped by severity with
// their evidence lines, gaps, and a one-line verdict.

#include <string>

#include "src/report/check_report.h"

namespace nd {

struct TextStyle {
  bool color = false;
};

std::string render_text(const CheckReport& report, const TextStyle& style);
// One finding as `severity: message [ID slug]` plus its evidence lines.
std::string render_finding(const Finding& f, const TextStyle& style);

}  // namespace nd
