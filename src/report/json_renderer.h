#pragma once
// `--format json`: schema nccl-doctor.check/2, documented in nccl-doctor(1).

#include <string>

#include <nlohmann/json.hpp>

#include "src/report/check_report.h"

namespace nd {

inline constexpr const char* kCheckSchema = "nccl-doctor.check/2";

nlohmann::json finding_json(const Finding& f);
nlohmann::json report_json(const CheckReport& report);
// `gpus`, `topology` and `nccl_tests` (and `inputs`, the kind of each input)
// when an input other than an NCCL log was read.
void add_gpu_side(const GpuSideSummary& gpu_side, nlohmann::json& out, bool with_inputs);
// Pretty-printed, invalid UTF-8 from the log replaced rather than thrown on.
std::string render_json(const CheckReport& report);

}  // namespace nd
