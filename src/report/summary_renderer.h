#pragma once
// `nccl-doctor summary`: the job's layout as terminal tables or as JSON
// (schema nccl-doctor.summary/1: a contract, extend, never rename).

#include <string>
#include <vector>

#include "src/report/job_summary.h"

namespace nd {

inline constexpr const char* kSummarySchema = "nccl-doctor.summary/1";

// Up to this many hosts the tables list every host; above it, hosts with the
// same row are folded into one line and the odd ones out are listed.
inline constexpr size_t kMaxListedHosts = 16;

std::string render_summary_text(const JobSummary& summary, const std::vector<std::string>& input_errors);
std::string render_summary_json(const JobSummary& summary, const std::vector<std::string>& input_errors);

// "0000:18:00.0" from NCCL's busId integer 0x18000.
std::string bdf(uint64_t bus_id);
// "gpu001", "gpu001, gpu002", "gpu001, gpu002, ... (40 hosts)"
std::string host_list(const std::vector<std::string>& hosts, size_t shown = 3);

}  // namespace nd
