#include "checks/input/line_samples.h"

namespace nd {

std::vector<Evidence> line_samples(const JobModel& model, const std::vector<LineRef>& refs, size_t max) {
  std::vector<Evidence> out;
  for (const auto& ref : refs) {
    if (out.size() >= max) break;
    const std::string* text = model.text_of(ref);
    out.push_back({model.files[ref.file], ref.line, text ? *text : ""});
  }
  return out;
}


}  // namespace nd
