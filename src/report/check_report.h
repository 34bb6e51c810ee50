#pragma once
// Everything `check` concludes, ready for a renderer: the job summary, the
// findings, the gaps in the evidence and the verdict.

#include <cstdint>
#include <string>
#include <vector>

#include "checks/registry.h"
#include "checks/rule.h"
#include "src/model/job_model.h"
#include "checks/finding.h"

namespace nd {

// Warn: nothing fails under --fail-on, but warnings were found (SHM inside a
// node, RDMA without GPUDirect...): a job that must not read as a plain pass.
enum class Verdict : uint8_t { Pass, Warn, Fail, Inconclusive };
const char* verdict_name(Verdict v);  // "pass", "warn", "fail", "inconclusive"

// --fail-on: findings at or above this fail the run; Inconclusive also fails
// on an inconclusive verdict.
enum class FailOn : uint8_t { Info, Warning, Error, Inconclusive };

struct CommSummary {
  std::string key;
  uint32_t nranks = 0;
  uint32_t nnodes = 0;
  size_t hosts = 0;
  size_t channels = 0;
  size_t edges = 0;
  bool synthetic = false;
};

// How much of the job the connection lines show, against what the log
// announces (nranks, nNodes): a PASS covers only what was seen.
struct Coverage {
  size_t hosts_seen = 0;       // hosts of ranks with a connection line
  size_t hosts_announced = 0;  // from nNodes, else the hosts seen anywhere
  size_t ranks_seen = 0;       // ranks with a connection line, in the largest communicator
  size_t ranks_announced = 0;  // its nranks
  std::vector<uint32_t> channels;  // channels with a connection line
  bool bindings = false;       // a launcher reported CPU bindings
};

struct JobSummary {
  size_t hosts = 0;
  size_t named_hosts = 0;  // hosts the log names (`hosts` may come from nNodes)
  // NCCL processes whose lines name no host (`host:pid:tid` missing or a
  // stand-in such as `<hostname>`): their host is unknown.
  size_t host_unknown_processes = 0;
  size_t ranks = 0;
  size_t communicators = 0;
  std::vector<std::string> nccl_versions;
  std::vector<std::string> intra;  // P2P, SHM, NET, NVLS
  std::vector<std::string> inter;  // IB, Socket, IBext_v8, AWS Libfabric: names on inter-node links
  // The same networks by family (IB, RoCE, EFA, Libfabric, Socket, else the
  // name), and what says so: "connections" (inter-node connection lines),
  // "network" (`Using network`, `Assigned NET plugin` of a multi-host job
  // without such lines), "warnings" (IB WARNs only), "none".
  std::vector<std::string> inter_families;
  std::string inter_from = "none";
  std::vector<std::string> networks;  // from `Using network`
  std::string gdr = "na";           // yes, no, mixed, na
  std::vector<CommSummary> comms;
  Coverage coverage;
  InputCounters counters;
  std::vector<std::string> files;
};

struct CheckReport {
  JobSummary summary;
  std::vector<Finding> findings;  // sorted: errors first, then by ID
  std::vector<Gap> gaps;
  std::vector<std::string> input_errors;  // files that could not be read
  Verdict verdict = Verdict::Inconclusive;
};

JobSummary summarize(const JobModel& model, const CheckOptions& options);
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
