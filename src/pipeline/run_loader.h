#pragma once
// One run as `diff` reads it: a saved `check --format json` report, known by
// its content, or inputs read and analyzed exactly like `check`'s and turned
// into that report, so that both compare alike.

#include <string>

#include <nlohmann/json.hpp>

#include "src/pipeline/pipeline.h"

namespace nd {

struct LoadedRun {
  nlohmann::json report;  // schema nccl-doctor.check/N; null unless status is 0
  int status = 0;         // 0; 2 unreadable; kExitNoNcclLines: nothing to judge
};

// `arg` is a path, HOST=FILE or "-" (standard input, read once). Problems
// are told on stderr, once each, like `check` tells them.
LoadedRun load_run(const std::string& arg, const CheckConfig& config);

}  // namespace nd
