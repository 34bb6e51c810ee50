#include "checks/topology/placement.h"

#include <algorithm>
#include <fmt/format.h>

namespace nd {

std::optional<GpuKey> gpu_of(const RankInfo& r) {
  if (r.host == kNoHost) return std::nullopt;
  if (r.bus_id) return GpuKey{r.host, true, *r.bus_id};
  if (r.nvml_dev >= 0) return GpuKey{r.host, false, static_cast<uint64_t>(r.nvml_dev)};
  return std::nullopt;
}

std::string gpu_text(const GpuKey& k) {
  return k.by_bus ? fmt::format("busId {:x}", k.id) : fmt::format("nvmlDev {}", k.id);
}

}  // namespace nd
