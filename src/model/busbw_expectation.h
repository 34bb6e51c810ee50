#pragma once
// What bus bandwidth an nccl-tests run should reach at large sizes, from
// what the inputs show of the hardware: a documented table of measured peaks
// per system (see man/rules/ND6020.md for the figures and their sources).

#include <optional>
#include <string>

#include "parsers/gpu/gpu_records.h"

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

// The row a run is judged by: its largest size; nullptr when it has none.
const NcclTestsRow* largest_row(const NcclTestsRun& run);
std::optional<double> row_busbw(const NcclTestsRow& row);

}  // namespace nd
