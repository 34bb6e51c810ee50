// Every golden log through batch and live mode: the same findings. Live
// mode judges the model after every line here, the hardest case for rules
// that see only a prefix of the input; what it tells must be a finding of
// the batch run, and its report at the end must be the batch run's.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "parsers/line_splitter.h"
#include "src/pipeline/live_reporter.h"
#include "src/pipeline/pipeline.h"
#include "src/report/text_renderer.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

// The inputs of one golden run, as scripts/golden.sh passes them.
std::vector<std::vector<std::string>> golden_runs() {
  std::vector<std::vector<std::string>> runs;
  for (const auto& version : fs::directory_iterator(fs::path(ND_SOURCE_ROOT) / "testdata" / "logs")) {
    for (const auto& entry : fs::directory_iterator(version.path())) {
      const fs::path& p = entry.path();
      if (p.extension() == ".log") runs.push_back({p.string()});
      if (p.extension() != ".ranks") continue;
      std::vector<std::string> files;
      for (const auto& f : fs::directory_iterator(p)) files.push_back(f.path().string());
      std::sort(files.begin(), files.end());
      runs.push_back(files);
    }
  }
  std::sort(runs.begin(), runs.end());
  return runs;
}

std::string report_of(const JobModel& model) {
  CheckConfig config;
  return render_text(analyze(model, config), TextStyle{false});
}

std::vector<Finding> findings_of(const JobModel& model) {
  CheckConfig config;
  return analyze(model, config).findings;
}

// A finding told live stands in the batch report: same rule, communicator
// and subject, or the one finding that sums up all host pairs of its label.
bool in_batch(const std::string& told, const std::set<std::string>& batch) {
  if (batch.count(told)) return true;
  size_t last_space = told.rfind(' '), second = told.rfind(' ', last_space - 1);
  if (last_space == std::string::npos || second == std::string::npos) return false;
  // "ND3001|0xabc|NET/Socket a b" is summed up by "ND3001|0xabc|NET/Socket *".
  return batch.count(told.substr(0, second) + " *") > 0;
}

struct LiveResult {
  std::string report;
  std::set<std::string> told;
};

LiveResult run_live(const std::vector<std::string>& paths) {
  JobModel model;
  ModelBuilder builder(model);
  CheckOptions options;
  RuleSelection all;
  LiveReporter reporter(builder, log_rules(), all, options, [](std::string_view) {});
  for (const auto& path : paths) {
    uint32_t file = builder.add_file(path);
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    split_lines(text, kDefaultMaxLine, [&](const Line& line) {
      builder.add_line(file, line);
      reporter.after_merge(/*more_input=*/false);
    });
  }
  builder.finish();
  return {report_of(model), reporter.told()};
}

}  // namespace

TEST_CASE("every golden log: live mode tells only batch findings and ends with the batch report") {
  size_t runs = 0, told = 0;
  for (const auto& paths : golden_runs()) {
    CAPTURE(paths.front());
    JobModel batch;
    read_model(paths, batch);
    std::set<std::string> batch_keys;
    for (const auto& f : findings_of(batch)) batch_keys.insert(finding_key(f));

    LiveResult live = run_live(paths);
    CHECK(live.report == report_of(batch));
    for (const auto& key : live.told) {
      INFO("told live: " << key);
      CHECK(in_batch(key, batch_keys));
    }
    ++runs;
    told += live.told.size();
  }
  CHECK(runs >= 30);
  // Most goldens carry a transport finding or a WARN that live mode tells.
  CHECK(told >= 20);
}
