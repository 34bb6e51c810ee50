#include "src/report/preflight_report.h"

#include <fmt/format.h>

namespace nd {

std::string preflight_status_str(PreflightStatus s) {
  switch (s) {
    case PreflightStatus::Ok: return "OK";
    case PreflightStatus::Warning: return "WARNING";
    case PreflightStatus::Critical: return "CRITICAL";
    case PreflightStatus::Unknown: return "UNKNOWN";
  }
  return fmt::format("unknown ({})", static_cast<int>(s));
}

}  // namespace nd
