#pragma once
// Test helper: runs one rule over a model and collects its findings.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "checks/rule.h"
#include "src/model/job_model.h"

namespace nd {

class CollectingSink final : public FindingSink {
 public:
  void add(Finding f) override { findings.push_back(std::move(f)); }
  std::vector<Finding> findings;
};

template <typename R>
std::vector<Finding> run_rule(const JobModel& model, CheckOptions options = {}) {
  CollectingSink sink;
  R rule;
  rule.check(CheckContext{model, options}, sink);
  return sink.findings;
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
