#pragma once
// The GPU side of `summary`: a GPU table and an nccl-tests table, printed
// only when such inputs were read.

#include <string>

#include "src/report/gpu_summary.h"

namespace nd {

void gpu_side_text(const GpuSideSummary& s, std::string& out);

}  // namespace nd
