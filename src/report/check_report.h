#pragma once
// Everything `check` concludes, ready for a renderer: the job summary, the
// findings, the gaps in the evidence, each enabled rule and the verdict.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checks/registry.h"
#include "checks/rule.h"
#include "checks/finding.h"
#include "src/model/job_model.h"
#include "src/report/job_summary.h"

namespace nd {

// Warn: nothing fails under --fail-on, but warnings were found (SHM inside a
// node, RDMA without GPUDirect...): a job that must not read as a plain pass.
enum class Verdict : uint8_t { Pass, Warn, Fail, Inconclusive };
const char* verdict_name(Verdict v);  // "pass", "warn", "fail", "inconclusive"

// --fail-on: findings at or above this fail the run; Inconclusive also fails
// on an inconclusive verdict.
enum class FailOn : uint8_t { Info, Warning, Error, Inconclusive };

// One enabled rule as the report judged it, for views that list every rule
// (JUnit): its findings are those of CheckReport::findings with its ID.
struct RuleStatus {
  std::string id;
  std::string slug;
  std::vector<size_t> gaps;  // indices into CheckReport::gaps that leave it undecided
};

struct CheckReport {
  JobSummary summary;
  std::vector<Finding> findings;  // sorted: errors first, then by ID
  std::vector<Gap> gaps;
  std::vector<RuleStatus> rules;  // the enabled rules, in registry order
  std::vector<std::string> input_errors;  // files that could not be read
  FailOn fail_on = FailOn::Error;
  Verdict verdict = Verdict::Inconclusive;

  // The finding is at or above --fail-on.
  bool fails(const Finding& f) const;
};

// What the log lacks for a verdict, with the NCCL settings to rerun with.
// Every gap, whichever rules it affects (judge() keeps those of enabled rules).
// `busbw_expected`: --expect-busbw was given, so every nccl-tests run has a
// figure to be judged against.
std::vector<Gap> find_gaps(const JobModel& model, const JobSummary& summary, bool busbw_expected = false);
// Keeps only the related IDs that fired and makes the links two-way, so that
// a transport finding names the setting that caused it and vice versa.
void link_related(std::vector<Finding>& findings);
Verdict decide(const std::vector<Finding>& findings, const std::vector<Gap>& gaps, FailOn fail_on);
// A gap leaves the rule undecided: the rule is one it names, or the gap
// names none and leaves the whole verdict open.
bool gap_affects(const Gap& gap, std::string_view rule_id);
// Judges `report` from its findings and gaps (all of find_gaps()): keeps the
// gaps of enabled rules, states each enabled rule, records --fail-on and
// decides the verdict.
void judge(CheckReport& report, const Registry& registry, const RuleSelection& selection, FailOn fail_on);
// Exit status when nothing in the input came from NCCL: empty, binary or
// compressed input, or the output of a job that died before NCCL spoke.
inline constexpr int kExitNoNcclLines = 4;
// 0 clean, 1 failing findings (or inconclusive with --fail-on inconclusive),
// 2 some input could not be read, 4 the input holds no NCCL line at all.
int exit_code(const CheckReport& report, FailOn fail_on);

}  // namespace nd
