#include "src/pipeline.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "checks/registry.h"
#include "src/model/line_feeder.h"
#include "src/model/model_builder.h"
#include "src/report/json_renderer.h"
#include "src/report/text_renderer.h"

namespace nd {
namespace {

class Timer {
 public:
  Timer(bool enabled, const char* stage) : enabled_(enabled), stage_(stage), start_(std::chrono::steady_clock::now()) {}
  ~Timer() {
    if (!enabled_) return;
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    fmt::print(stderr, "nccl-doctor: timing: {:<8} {:10.1f} ms\n", stage_, ms);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

 private:
  bool enabled_;
  const char* stage_;
  std::chrono::steady_clock::time_point start_;
};

class VectorSink final : public FindingSink {
 public:
  void add(Finding f) override { findings.push_back(std::move(f)); }
  std::vector<Finding> findings;
};

// Reads one input into the builder. Returns an error text, empty on success.
std::string read_input(const std::string& path, ModelBuilder& builder) {
  bool is_stdin = path == "-";
  std::string name = is_stdin ? "<stdin>" : path;
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot open '{}': {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (!is_stdin) ::close(fd);
    return fmt::format("cannot read '{}': is a directory", path);
  }
  uint32_t file = builder.add_file(name);
  // Large reads, parsed on every core, merged in line order.
  int err = feed_lines(fd, file, builder).error;
  if (!is_stdin) ::close(fd);
  if (err != 0) return fmt::format("error reading '{}': {}", name, std::strerror(err));
  return {};
}

}  // namespace

bool write_stdout(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(STDOUT_FILENO, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fmt::print(stderr, "nccl-doctor: error: cannot write the report to standard output: {}\n",
                 std::strerror(n < 0 ? errno : EIO));
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

CheckReport analyze(const JobModel& model, const CheckConfig& config) {
  CheckReport report;
  VectorSink sink;
  CheckContext ctx{model, config.options};
  for (const auto& rule : log_rules().rules()) rule->check(ctx, sink);
  report.findings = std::move(sink.findings);
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(b.severity, a.id) < std::tie(a.severity, b.id);
  });
  report.summary = summarize(model, config.options);
  report.gaps = find_gaps(model, report.summary);
  report.verdict = decide(report.findings, report.gaps, config.fail_on);
  return report;
}

int run_check(const CheckConfig& config) {
  JobModel model;
  ModelBuilder builder(model);
  std::vector<std::string> errors;
  {
    // Split, strip launcher prefixes, classify and assign in one streaming
    // pass: memory follows ranks x channels, not the length of the log.
    Timer t(config.timings, "read");
    for (const auto& path : config.inputs) {
      std::string err = read_input(path, builder);
      if (!err.empty()) {
        fmt::print(stderr, "nccl-doctor: error: {}\n", err);
        errors.push_back(err);
      }
    }
  }
  {
    // Pending lines can only be assigned once every Init line is known.
    Timer t(config.timings, "model");
    builder.finish();
  }
  CheckReport report;
  {
    Timer t(config.timings, "checks");
    report = analyze(model, config);
    report.input_errors = std::move(errors);
  }
  std::string out = config.format == OutputFormat::Json ? render_json(report)
                                                        : render_text(report, TextStyle{config.color});
  if (!write_stdout(out)) return 2;
  return exit_code(report, config.fail_on);
}

}  // namespace nd
