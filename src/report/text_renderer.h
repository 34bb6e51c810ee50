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
// "details: nccl-doctor explain ND3001 ND3004" for the rules that fired, most
// severe first; empty when none did.
std::string explain_hint(const std::vector<Finding>& findings);
// "idle NICs: mlx5_2, mlx5_3": the words `check` and `summary` both use.
std::string idle_nics_text(const std::vector<std::string>& nics);

}  // namespace nd
