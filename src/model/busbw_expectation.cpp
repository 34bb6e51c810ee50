#include "src/model/busbw_expectation.h"

#include <algorithm>
#include <array>
#include <set>

namespace nd {
namespace {

// All-reduce busbw of one host's 8 GPUs through NVSwitch, ring algorithm
// (NVLS can go higher), as measured in public nccl-tests results.
struct SystemPeak {
  const char* name_part;  // in the GPU name nvidia-smi and nccl-tests print
  double gbs;
  const char* system;
};

constexpr std::array<SystemPeak, 4> kPeaks = {{
    {"H800", 215, "8x H800 SXM in one host (NVLink, NVSwitch)"},
    {"H100", 370, "8x H100 SXM in one host (NVLink 4, NVSwitch)"},
    {"H200", 370, "8x H200 SXM in one host (NVLink 4, NVSwitch)"},
    {"A100-SXM", 230, "8x A100 SXM in one host (NVLink 3, NVSwitch)"},
}};

// PCIe cards and NVL pairs have no NVSwitch between all eight.
bool without_nvswitch(const std::string& name) {
  return name.find("PCIe") != std::string::npos || name.find("PCIE") != std::string::npos ||
         name.find("NVL") != std::string::npos;
}

bool busbw_comparable(const std::string& op) {
  return op == "all_reduce" || op == "all_gather" || op == "reduce_scatter";
}

}  // namespace

const NcclTestsRow* largest_row(const NcclTestsRun& run) {
  const NcclTestsRow* best = nullptr;
  for (const auto& row : run.rows) {
    if (!best || row.size_bytes > best->size_bytes) best = &row;
  }
  return best;
}

std::optional<double> row_busbw(const NcclTestsRow& row) {
  if (row.oop_busbw_gbs && row.ip_busbw_gbs) return std::max(*row.oop_busbw_gbs, *row.ip_busbw_gbs);
  return row.oop_busbw_gbs ? row.oop_busbw_gbs : row.ip_busbw_gbs;
}

std::optional<BusbwExpectation> derived_busbw(const NcclTestsRun& run) {
  if (!busbw_comparable(run.op) || run.ranks.size() != 8) return std::nullopt;
  std::set<std::string> hosts, names;
  for (const auto& r : run.ranks) {
    hosts.insert(r.host);
    names.insert(r.name);
  }
  if (hosts.size() != 1 || names.size() != 1) return std::nullopt;
  const std::string& name = *names.begin();
  if (without_nvswitch(name)) return std::nullopt;
  for (const auto& peak : kPeaks) {
    if (name.find(peak.name_part) != std::string::npos) {
      return BusbwExpectation{peak.gbs, peak.system};
    }
  }
  return std::nullopt;
}

}  // namespace nd
