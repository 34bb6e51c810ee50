#pragma once
// The one rule interface. Every rule, whatever it reads (the log's model, one
// node's probe record, the records of all nodes), sees the same CheckContext
// and reports through a FindingSink; it never prints.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checks/finding.h"
#include "src/probe/expectations.h"
#include "src/probe/node_snapshot.h"
#include "src/probe/record_reader.h"

namespace nd {

struct JobModel;

// What a rule reads: `check` runs the Log rules, `preflight` the Node rules on
// each node and the Cluster rules across all of them.
enum class Needs : uint8_t { Log, Node, Cluster };

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
  // A GPU busy less than this share (%) of its steady state is underused
  // (`--min-gpu-util`).
  double min_gpu_util = 80;
  // The bus bandwidth nccl-tests should reach, in GB/s (`--expect-busbw`);
  // unset: derived from what the inputs show of the hardware.
  std::optional<double> expect_busbw_gbs;
  // What the site expects of its nodes (`--expect`); unset keys fall back to
  // the zero-config rules.
  Expectations expect;
  // `check -v`: rank, channel and host lists in messages in full, not cut to
  // fit a terminal (JSON's "ranks", "hosts" and "channels" are always full).
  bool full_lists = false;
};

// Host names for a message: all of them with -v or when few, else
// "a, b, c and 125 more".
std::string names_text(const std::vector<std::string>& names, const CheckOptions& options);
// Ranks ("0-7,16") or channels (width 2) for a message, cut unless -v.
std::string ranges_text(const std::vector<uint32_t>& values, int width, const CheckOptions& options);

// One node's probe record, named the way findings name it.
struct ProbedNode {
  std::string label;  // host, or host#rank when a host sent several records
  const NodeSnapshot* snapshot;
};

struct CheckContext {
  const JobModel& model;  // empty when there is no log
  const CheckOptions& options;
  std::span<const ProbedNode> nodes = {};         // empty when nothing was probed
  std::span<const RecordProblem> problems = {};   // probe records that could not be read
  std::string_view source = {};                   // the records' input, for evidence ("-": stdin)
  // Live mode, before the end of the input: the model holds a prefix of it.
  bool input_open = false;
};

class FindingSink {
 public:
  virtual ~FindingSink() = default;
  virtual void add(Finding finding) = 0;
};

// Keeps every finding, in the order the rules report them.
class FindingList final : public FindingSink {
 public:
  void add(Finding f) override { findings.push_back(std::move(f)); }
  std::vector<Finding> findings;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const CheckContext& ctx, FindingSink& out) const = 0;
};

// A rule that judges one node at a time: check() runs check_node() on every
// probed node and names that node (its label, and its rank when it has one)
// in each finding, so the rule itself never does.
class NodeRule : public Rule {
 public:
  void check(const CheckContext& ctx, FindingSink& out) const final;

 protected:
  virtual void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const = 0;
};

// The one finding factory: id, slug and severity from the rule's info, or the
// given severity where one finding is graver or milder than the rule's default.
Finding make_finding(const RuleInfo& info, std::string message);
Finding make_finding(const RuleInfo& info, std::string message, Severity severity);
// A probe fact as evidence: the sysfs path (or record input) and its value.
void add_evidence(Finding& f, std::string file, std::string value);

}  // namespace nd
