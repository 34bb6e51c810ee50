#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/report/preflight_output.h"
#include "src/util/text.h"

namespace nd {

std::string render_preflight_text(const PreflightReport& r) {
  std::string out = fmt::format("NCCL-DOCTOR {} - {}\n", preflight_status_str(r.status), r.reason);
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) {
    ++counts[static_cast<int>(f.severity)];
    std::string where;
    for (const auto& h : f.hosts) where += (where.empty() ? "" : ",") + h;
    out += fmt::format("{}{}: {} [{}]\n", where.empty() ? "" : where + ": ", severity_name(f.severity),
                       printable(f.message), f.id);
    for (const auto& e : f.evidence) {
      out += e.line != 0 ? fmt::format("    {}:{}: {}\n", e.file, e.line, printable(e.text))
                         : fmt::format("    {}: {}\n", e.file, printable(e.text));
    }
  }
  // Each rule's fix once: a cluster's nodes often share one fault.
  std::vector<std::string> fixed;
  for (Severity sev : {Severity::Error, Severity::Warning, Severity::Info}) {
    for (const auto& f : r.findings) {
      if (f.severity != sev || f.fix.empty() || std::find(fixed.begin(), fixed.end(), f.id) != fixed.end()) continue;
      fixed.push_back(f.id);
      out += fmt::format("fix {}: {}\n", f.id, f.fix);
    }
  }
  if (!fixed.empty()) out += fmt::format("details: nccl-doctor explain {}\n", fmt::join(fixed, " "));
  std::string expect = expectations_str(r.expect);
  out += fmt::format("{} node(s) checked{}: {} error(s), {} warning(s), {} note(s){}\n", r.nodes.size(),
                     r.aggregate ? fmt::format(" from {}", r.source) : "", counts[2], counts[1], counts[0],
                     expect.empty() ? "" : "; expected " + expect);
  return out;
}

}  // namespace nd
