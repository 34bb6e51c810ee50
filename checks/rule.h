#pragma once
// The rule interface. A rule reads the model (and, for hardware rules, the
// probe snapshot) and emits findings; it never prints.

#include <string>
#include <string_view>
#include <vector>

#include "checks/finding.h"

namespace nd {

struct JobModel;

enum class Needs : uint8_t { Log, Hardware };

struct RuleInfo {
  std::string_view id;
  std::string_view slug;
  Severity severity;
  Needs needs;
  std::string_view summary;
};

struct CheckOptions {
  // Extra network names that count as RDMA (`--allow-net`).
  std::vector<std::string> allowed_nets;
  size_t max_evidence = 3;
};

struct CheckContext {
  const JobModel& model;
  const CheckOptions& options;
};

class FindingSink {
 public:
  virtual ~FindingSink() = default;
  virtual void add(Finding finding) = 0;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const CheckContext& ctx, FindingSink& out) const = 0;
};

// Fills id, slug and severity from the rule's info.
Finding make_finding(const RuleInfo& info, std::string message);

}  // namespace nd
