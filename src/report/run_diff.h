#pragma once
// `diff`: what changed between a run that was fast (GOOD) and one that is
// not (BAD), each given as its `check --format json` report (schema
// nccl-doctor.check/2): transports by channel and host pair, GPUDirect RDMA,
// the NICs in use, ranks' hosts and GPUs, NCCL versions and settings,
// findings, nccl-tests bus bandwidth and GPU utilisation. A log is first read
// into that report by the pipeline, so a log and its saved report compare
// the same.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace nd {

inline constexpr const char* kDiffSchema = "nccl-doctor.diff/1";

// A busbw drop larger than this share of GOOD's is a regression.
inline constexpr double kBusbwRegression = 0.10;
// GPU utilisation changes of at least this many percentage points are told.
inline constexpr double kUtilChangePoints = 10;

// Worse: BAD regressed (a slower transport, GDR or a NIC lost, a new warning
// or error finding, busbw down). Better: the reverse. Changed: neither.
enum class Change : uint8_t { Worse, Better, Changed };
const char* change_name(Change c);  // "worse", "better", "changed"

struct DiffItem {
  std::string kind;  // transport, gdr, nics, hosts, ranks, version, setting, finding, busbw, gpu_util
  Change change = Change::Changed;
  std::string text;     // one line, as the text view prints it
  nlohmann::json detail = nlohmann::json::object();  // the same as data, for --format json
};

// A communicator of either run and its counterpart in the other.
struct CommPair {
  std::string good;  // communicator id in GOOD; empty: only in BAD
  std::string bad;   // in BAD; empty: only in GOOD
  uint32_t nranks = 0;
  std::string matched_by;  // "id", "size and order", "none"
  std::vector<DiffItem> items;
};

// One run as the header tells it.
struct RunSide {
  std::string input;  // as given on the command line
  std::vector<std::string> nccl_versions;
  uint64_t hosts = 0;
  uint64_t ranks = 0;
  uint64_t communicators = 0;
};

struct RunDiff {
  RunSide good;
  RunSide bad;
  std::vector<CommPair> comms;         // GOOD's order, then those only in BAD
  std::vector<DiffItem> job;           // job-wide changes
  std::vector<std::string> not_compared;  // what one report lacks

  size_t count(Change c) const;
  size_t changes() const;  // items, plus communicators only in one run
  bool regressed() const { return count(Change::Worse) > 0; }
};

// A `check --format json` report: an object whose schema is nccl-doctor.check/N.
bool is_check_report(const nlohmann::json& j);

RunDiff diff_runs(const nlohmann::json& good, const nlohmann::json& bad, const std::string& good_input,
                  const std::string& bad_input);

std::string render_diff_text(const RunDiff& diff);
std::string render_diff_json(const RunDiff& diff);

}  // namespace nd
