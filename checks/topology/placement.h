#pragma once
// Which GPU a rank runs on, as far as the log tells: busId (2.5+), else the
// NVML index (2.4 prints only nvmlDev). Shared by the placement rules.

#include <optional>
#include <string>

#include "src/model/job_model.h"

namespace nd {

struct GpuKey {
  uint32_t host = kNoHost;
  bool by_bus = false;
  uint64_t id = 0;
  friend auto operator<=>(const GpuKey&, const GpuKey&) = default;
};

std::optional<GpuKey> gpu_of(const RankInfo& r);
// "busId 18000" or "nvmlDev 3".
std::string gpu_text(const GpuKey& k);

}  // namespace nd
