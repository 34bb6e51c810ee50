#include "checks/finding.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nd {

std::string finding_key(const Finding& f) {
  if (!f.subject.empty()) return fmt::format("{}|{}|{}", f.id, f.comm, f.subject);
  return fmt::format("{}|{}|{}", f.id, f.comm, fmt::join(f.hosts, " "));
}

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "unknown";
}

}  // namespace nd
