#include "checks/gpu/gpu_labels.h"

#include <fmt/format.h>

namespace nd {

std::string host_label(const GpuTrack& g) { return g.host.empty() ? "host unknown" : g.host; }

std::string gpu_label(const GpuTrack& g) {
  if (g.index) return fmt::format("GPU {}", *g.index);
  if (!g.bus_id.empty()) return "GPU " + g.bus_id;
  return g.uuid.empty() ? "GPU ?" : g.uuid;
}

std::string host_gpu_label(const GpuTrack& g) { return host_label(g) + " " + gpu_label(g); }

std::string format_mib(std::optional<double> mib) {
  if (!mib) return "N/A";
  if (*mib < 1024) return fmt::format("{:.0f} MiB", *mib);
  return fmt::format("{:.1f} GiB", *mib / 1024);
}

}  // namespace nd
