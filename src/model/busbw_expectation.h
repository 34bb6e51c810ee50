#pragma once
// What bus bandwidth an nccl-tests run should reach at large sizes, from
// what the inputs show of the hardware: a documented table of measured peaks
// per system (see man/rules/ND6020.md for the figures and their sources).

#include <optional>
#include <string>

#include "parsers/gpu/gpu_records.h"
#include "src/model/job_model.h"

namespace nd {

struct BusbwExpectation {
  double gbs = 0;
  std::string source;  // "8x H100 SXM in one host (NVLink 4, NVSwitch)"
};

// Sizes below this do not reach the peak the table gives.
inline constexpr uint64_t kPeakBusbwBytes = uint64_t{1} << 30;

// The figure for `run`, or nullopt when the table has none for what it ran
// on (PCIe GPUs, several hosts, an op without a comparable busbw).
std::optional<BusbwExpectation> derived_busbw(const NcclTestsRun& run);

// A run across hosts: a ring crosses each host boundary once per channel,
// so its bus bandwidth is at most what one host's NICs carry out; a healthy
// fabric reaches about kFabricShare of their line rate. The NICs and rates
// come from the probe records of every host of the run (only the NICs the
// log's `NET/IB : Using` lists for the host, when it lists them; at most
// one per rank on the host), capped by the single-host figure of the GPUs.
// None when a host of the run has no probe record or no active port.
std::optional<BusbwExpectation> derived_fabric_busbw(const NcclTestsRun& run, const JobModel& model);
inline constexpr double kFabricShare = 0.9;

// A run of three GPUs or more inside one host whose GPUs `nvidia-smi topo -m`
// (of that host, or the input's one unnamed matrix) shows joined by NVLink,
// every pair: what
// the fewest links between a pair carry each way, by the NVLink generation
// of the GPUs' name, times kNvlinkShare. Ring all-reduce over NVSwitch
// reaches 77-82 % of the links' rate (A100: 230 of 300 GB/s, H100: 370 of
// 450); the fewest links of a pair is what one ring gets at least where
// GPUs are meshed without a switch. None when a pair has no NVLink, the
// name has no known generation or the run's GPUs cannot be told.
std::optional<BusbwExpectation> derived_nvlink_busbw(const NcclTestsRun& run, const JobModel& model);
inline constexpr double kNvlinkShare = 0.77;

// The figure for `run` from everything the inputs show: one host's GPUs
// (the table, else their NVLinks), else the fabric between hosts.
std::optional<BusbwExpectation> expected_busbw(const NcclTestsRun& run, const JobModel& model);

// The row a run is judged by: its largest size; nullptr when it has none.
const NcclTestsRow* largest_row(const NcclTestsRun& run);
std::optional<double> row_busbw(const NcclTestsRow& row);

}  // namespace nd
