#pragma once
// Test helper: runs one rule over a model and collects its findings.

#include <vector>

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
