#pragma once
// How the ND60 rules name a host and a GPU of nvidia-smi's output.

#include <optional>
#include <string>

#include "src/model/gpu_side.h"

namespace nd {

// "gpu07", or "host unknown" for an input that named no host.
std::string host_label(const GpuTrack& g);
// "GPU 3", else by bus ID ("GPU 0000:18:00.0") or UUID when no index was printed.
std::string gpu_label(const GpuTrack& g);
// "gpu07 GPU 3".
std::string host_gpu_label(const GpuTrack& g);
// "512 MiB", "69.6 GiB"; "N/A" when unknown.
std::string format_mib(std::optional<double> mib);

}  // namespace nd
