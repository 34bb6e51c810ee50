#include "checks/rule.h"

namespace nd {

Finding make_finding(const RuleInfo& info, std::string message) {
  Finding f;
  f.id = std::string(info.id);
  f.slug = std::string(info.slug);
  f.severity = info.severity;
  f.message = std::move(message);
  return f;
}

}  // namespace nd
