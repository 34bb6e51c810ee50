#pragma once
// Test helpers: run one registered rule, named by ID or slug, and collect
// its findings.

#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "checks/registry.h"
#include "src/model/job_model.h"

namespace nd {

// The registered rule `name`; fails the test when there is none.
inline const Rule& registered_rule(std::string_view name) {
  const Rule* rule = all_rules().rule(name);
  REQUIRE_MESSAGE(rule != nullptr, "no rule " << std::string(name));
  return *rule;
}

inline std::vector<Finding> run_rule(std::string_view name, const CheckContext& ctx) {
  FindingList sink;
  registered_rule(name).check(ctx, sink);
  return sink.findings;
}

inline std::vector<Finding> run_rule(std::string_view name, const JobModel& model, const CheckOptions& options = {}) {
  return run_rule(name, CheckContext{model, options});
}

// "severity: message" per finding, the way a user reads them.
inline std::vector<std::string> messages(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(std::string(severity_name(f.severity)) + ": " + f.message);
  return out;
}

}  // namespace nd

// Lists of finding messages print one per line when a CHECK fails.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    std::string out = "{";
    for (const auto& s : v) out += "\n  \"" + s + "\"";
    return (out + "}").c_str();
  }
};
}  // namespace doctest
