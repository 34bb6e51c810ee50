#pragma once
// Small helpers shared by the config and health rules.

#include <set>
#include <string>

#include "checks/rule.h"
#include "src/model/job_model.h"

namespace nd {

// Appends the cited line to `f` unless it already holds `max` lines.
inline void cite(const JobModel& model, Finding& f, LineRef ref, size_t max) {
  if (f.evidence.size() >= max || ref.line == 0) return;
  for (const auto& e : f.evidence) {
    if (e.line == ref.line && e.file == model.files[ref.file]) return;
  }
  auto text = model.text_of(ref);
  f.evidence.push_back({model.files[ref.file], ref.line, text ? std::string(*text) : std::string()});
}

// Sorted, de-duplicated host names of `hosts` (kNoHost skipped).
inline std::vector<std::string> host_names(const JobModel& model, const std::set<uint32_t>& hosts) {
  std::set<std::string> names;
  for (uint32_t h : hosts) {
    if (h != kNoHost) names.insert(model.host_name(h));
  }
  return {names.begin(), names.end()};
}

// True when the log shows more than one host (or NCCL says nNodes > 1).
bool multi_node(const JobModel& model);

}  // namespace nd
