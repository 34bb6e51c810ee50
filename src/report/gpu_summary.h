#pragma once
// The GPU side of the job as every view tells it: which inputs were read as
// what, each GPU's utilisation and memory, each host's `topo -m` and each
// nccl-tests run. Computed once, by summarize().

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/model/job_model.h"

namespace nd {

// One input and what it was read as: "nccl-log", "nvidia-smi",
// "nvidia-smi-csv", "nvidia-smi-dmon", "nvidia-smi-topo", "nccl-tests",
// "horovod-timeline", "probe-record", "bindings".
struct InputKind {
  std::string path;
  std::string kind;
};

struct GpuProcessRow {
  std::optional<uint64_t> pid;
  std::optional<double> mem_mib;
  std::string type;
  std::string name;
};

struct GpuRow {
  std::string host;  // empty: the input named none
  std::optional<uint32_t> index;
  std::string name;
  std::string bus_id;
  uint64_t samples = 0;
  std::optional<double> util_mean;  // over every sample
  std::optional<double> util_max;
  std::optional<double> util_p10;   // of the steady state (see steady_util())
  std::optional<double> mem_used_mib;  // the last sample's
  std::optional<double> mem_total_mib;
  std::optional<double> power_max_w;
  std::vector<GpuProcessRow> processes;
};

struct NearestNic {
  std::string nic;
  std::string path;  // PIX, PXB, PHB, NODE, SYS
};

struct TopologyRow {
  std::string host;
  size_t gpus = 0;
  std::vector<std::string> nics;  // resolved names, in column order
  std::map<std::string, std::map<std::string, std::string>> links;
  std::map<std::string, NearestNic> nearest_nic;  // by GPU
};

struct NcclTestsSummary {
  std::string op;  // "all_reduce"; empty when the output never named it
  size_t ranks = 0;
  std::vector<std::string> hosts;
  size_t rows = 0;
  std::optional<double> max_busbw_gbs;  // the largest busbw of any row, either placement
  std::optional<uint64_t> max_busbw_bytes;  // the size of the row that had it
  std::optional<double> avg_busbw_gbs;
  uint64_t wrong = 0;  // numeric #wrong cells summed
  size_t failures = 0;  // `Test NCCL failure` lines and the like
  bool out_of_bounds_failed = false;
  // The largest size, the one ND6020 judges, and what it should reach.
  std::optional<uint64_t> largest_bytes;
  std::optional<double> largest_busbw_gbs;
  std::optional<double> expected_gbs;
  std::string expected_source;
};

// A probe record read beside the log, and where.
struct ProbeRecordRow {
  std::string host;  // empty: the record named none
  std::string path;
  uint32_t line = 0;
};

struct GpuSideSummary {
  std::vector<InputKind> inputs;
  std::vector<GpuRow> gpus;
  std::vector<TopologyRow> topology;
  std::vector<NcclTestsSummary> nccl_tests;
  size_t timelines = 0;
  std::vector<ProbeRecordRow> probe_records;  // one per host
  size_t probe_problems = 0;                  // records that could not be read

  // Whether any input other than an NCCL log said something to judge.
  bool any() const {
    return !gpus.empty() || !topology.empty() || timelines > 0 || !probe_records.empty() || probe_problems > 0 ||
           std::any_of(nccl_tests.begin(), nccl_tests.end(),
                       [](const NcclTestsSummary& t) { return t.rows > 0 || t.failures > 0; });
  }
};

GpuSideSummary summarize_gpu_side(const JobModel& model);

// "nvidia-smi", "nccl-tests", …: the JSON `inputs[].kind` of a reader's format.
const char* side_kind_name(SideKind kind);

}  // namespace nd
