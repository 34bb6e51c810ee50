#include "checks/input/line_samples.h"

namespace nd {

std::vector<Evidence> line_samples(const JobModel& model, const std::vector<LineRef>& refs, size_t max) {
  std::vector<Evidence> out;
  for (const auto& ref : refs) {
    if (out.size() >= max) break;
    auto text = model.text_of(ref);
    out.push_back({model.files[ref.file], ref.line, text ? std::string(*text) : std::string()});
  }
  return out;
}


}  // namespace nd
