#pragma once
// Test helper: builds a JobModel from inline log lines, one literal per line.

#include <initializer_list>
#include <string>
#include <vector>

#include "src/model/model_builder.h"

namespace nd {

template <typename Lines>
JobModel model_from_lines(const Lines& lines, std::string file = "job.log") {
  JobModel model;
  ModelBuilder builder(model);
  uint32_t f = builder.add_file(std::move(file));
  uint64_t n = 0;
  for (std::string_view text : lines) builder.add_line(f, Line{text, ++n, false});
  builder.finish();
  return model;
}

inline JobModel model_from(std::initializer_list<std::string_view> lines, std::string file = "job.log") {
  return model_from_lines(lines, std::move(file));
}

}  // namespace nd
