#pragma once
// The `check` pipeline: read, classify, model, check, report.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "checks/registry.h"
#include "checks/rule.h"
#include "src/report/check_report.h"

namespace nd {

enum class OutputFormat : uint8_t { Text, Json, Junit };

struct CheckConfig {
  std::vector<std::string> inputs;  // paths, "-" for standard input
  OutputFormat format = OutputFormat::Text;
  FailOn fail_on = FailOn::Error;
  CheckOptions options;
  bool color = false;
  bool timings = false;
  RuleSelection selection;  // --enable/--disable
  // --tee -: copy the input to stdout as it arrives, print findings to
  // stderr as they are established and the report to stderr at the end.
  bool tee = false;
  // --hang-after: ranks still in init when the input pauses this long hang.
  std::optional<std::chrono::milliseconds> hang_after;
};

// Reads every input into `model` in one streaming pass and finishes the model.
// Each unreadable input gets one message on stderr; returns those messages.
std::vector<std::string> read_model(const std::vector<std::string>& inputs, JobModel& model, bool timings = false);

// Runs the pipeline and writes the report to stdout; returns the exit status.
int run_check(const CheckConfig& config);

// The stages without I/O of the report, for tests: builds the report from
// already-read inputs.
CheckReport analyze(const JobModel& model, const CheckConfig& config);

// Writes all of `text` to stdout; false (after one message on stderr) when
// stdout is closed or full.
bool write_stdout(const std::string& text);

}  // namespace nd
