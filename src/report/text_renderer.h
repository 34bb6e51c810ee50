#pragma once
// Human output of `check`: a summary line, findings grouped by severity with
// their evidence lines, gaps, and a one-line verdict.

#include <string>
#include <vector>

#include "src/report/check_report.h"

namespace nd {

struct TextStyle {
  bool color = false;
};

std::string render_text(const CheckReport& report, const TextStyle& style);
// One finding as `severity: message [ID slug]` plus its evidence lines.
std::string render_finding(const Finding& f, const TextStyle& style);
// "idle NICs: mlx5_2, mlx5_3": the words `check` and `summary` both use.
std::string idle_nics_text(const std::vector<std::string>& nics);

}  // namespace nd
