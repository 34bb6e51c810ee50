#pragma once
// Everything `check` concludes, ready for a renderer: the job summary, the
// findings, the gaps in the evidence and the verdict.

#include <cstdint>
#include <string>
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

struct CheckReport {
  JobSummary summary;
  std::vector<Finding> findings;  // sorted: errors first, then by ID
  std::vector<Gap> gaps;
  std::vector<std::string> input_errors;  // files that could not be read
  Verdict verdict = Verdict::Inconclusive;
};

// What the log lacks for a verdict, with the NCCL settings to rerun with.
// Every gap, whichever rules it affects.
std::vector<Gap> find_gaps(const JobModel& model, const JobSummary& summary);
// The gaps that leave some enabled rule of `registry` undecided.
std::vector<Gap> find_gaps(const JobModel& model, const JobSummary& summary, const Registry& registry,
                           const RuleSelection& selection);
// Keeps only the related IDs that fired and makes the links two-way, so that
// a transport finding names the setting that caused it and vice versa.
void link_related(std::vector<Finding>& findings);
Verdict decide(const std::vector<Finding>& findings, const std::vector<Gap>& gaps, FailOn fail_on);
// Exit status when nothing in the input came from NCCL: empty, binary or
// compressed input, or the output of a job that died before NCCL spoke.
inline constexpr int kExitNoNcclLines = 4;
// 0 clean, 1 failing findings (or inconclusive with --fail-on inconclusive),
// 2 some input could not be read, 4 the input holds no NCCL line at all.
int exit_code(const CheckReport& report, FailOn fail_on);

}  // namespace nd
