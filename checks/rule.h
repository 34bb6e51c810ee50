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

// When a rule's findings can be told. AtEnd: only once the whole input is
// read (ring shapes, counts, what is missing). AsSeen: a finding on the lines
// read so far stays true whatever follows (a socket link, a WARN), so live
// mode (`check --tee`) reports it at once; the rule sees
// CheckContext::input_open and holds back what later lines could undo.
enum class Decided : uint8_t { AtEnd, AsSeen };

struct RuleInfo {
  std::string_view id;
  std::string_view slug;
  Severity severity;
  Needs needs;
  std::string_view summary;
  Decided decided = Decided::AtEnd;
};

struct CheckOptions {
  // Extra network names that count as RDMA (`--allow-net`).
  std::vector<std::string> allowed_nets;
  size_t max_evidence = 3;
};

struct CheckContext {
  const JobModel& model;
  const CheckOptions& options;
  // Live mode, before the end of the input: the model holds a prefix of it.
  bool input_open = false;
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
