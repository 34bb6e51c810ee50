#include "src/pipeline/run_loader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "src/model/job_model.h"
#include "src/report/json_renderer.h"
#include "src/report/run_diff.h"

namespace nd {
namespace {

using nlohmann::json;

// A saved report is at most this large; a larger input is read as a log.
constexpr uint64_t kMaxReportBytes = uint64_t{1} << 30;

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Reads all of `fd` from its start; false on a read error.
bool read_whole(int fd, std::string& out) {
  char buf[1 << 16];
  if (::lseek(fd, 0, SEEK_SET) < 0) return false;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out.append(buf, static_cast<size_t>(n));
  }
}

// The first byte of `fd` that is not blank, read from its start; 0 when none.
char first_byte(int fd) {
  char buf[4096];
  for (off_t at = 0;;) {
    ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    for (ssize_t i = 0; i < n; ++i) {
      if (!blank(buf[i])) return buf[i];
    }
    at += n;
  }
}

enum class Saved : uint8_t { No, Report, Foreign };

// A JSON object in `text`: a check report, another nccl-doctor output, or
// neither (then the input is read as a log).
Saved saved_report(const std::string& text, json& out, std::string& schema) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Saved::No;
  if (is_check_report(j)) {
    out = std::move(j);
    return Saved::Report;
  }
  auto it = j.find("schema");
  if (it == j.end() || !it->is_string() || !it->get<std::string>().starts_with("nccl-doctor.")) return Saved::No;
  schema = it->get<std::string>();
  return Saved::Foreign;
}

// Copies standard input into an unnamed file, so that it can be looked at
// and then read as a log from its start; returns that file's descriptor, or
// -1 after telling why.
int spool_stdin() {
  std::FILE* tmp = std::tmpfile();
  if (!tmp) {
    fmt::print(stderr, "nccl-doctor: error: cannot spool standard input: {}\n", std::strerror(errno));
    return -1;
  }
  int fd = ::dup(::fileno(tmp));
  std::fclose(tmp);
  if (fd < 0) return -1;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      fmt::print(stderr, "nccl-doctor: error: error reading '<stdin>': {}\n", std::strerror(errno));
      ::close(fd);
      return -1;
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(fd, buf + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        fmt::print(stderr, "nccl-doctor: error: cannot spool standard input: {}\n", std::strerror(errno));
        ::close(fd);
        return -1;
      }
      done += w;
    }
  }
  return fd;
}

// Every field the comparison reads, with its JSON type; "" when all fit.
std::string report_shape_problem(const json& report) {
  try {
    // diff_runs() reads through the same accessors; run it on the report
    // against itself, so any field of the wrong type surfaces here.
    (void)diff_runs(report, report, "", "");
    const json& s = report.value("summary", json::object());
    (void)s.value("nccl_lines", uint64_t{0});
  } catch (const json::exception& e) {
    return e.what();
  }
  return {};
}

bool nothing_in(const json& report) {
  const json& s = report.value("summary", json::object());
  return s.value("nccl_lines", uint64_t{0}) == 0 && !report.contains("gpus") && !report.contains("nccl_tests");
}

}  // namespace

LoadedRun load_run(const std::string& arg, const CheckConfig& config) {
  LoadedRun run;
  bool is_stdin = arg == "-";
  std::string name = is_stdin ? "<stdin>" : arg;
  // A saved report is known by its content, whatever its name.
  int fd = -1;
  if (is_stdin) {
    fd = spool_stdin();
    if (fd < 0) {
      run.status = 2;
      return run;
    }
  } else {
    struct stat st {};
    if (::stat(arg.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        static_cast<uint64_t>(st.st_size) <= kMaxReportBytes) {
      fd = ::open(arg.c_str(), O_RDONLY | O_CLOEXEC);
    }
  }
  if (fd >= 0) {
    std::string text, schema;
    Saved saved = Saved::No;
    if (first_byte(fd) == '{' && read_whole(fd, text)) saved = saved_report(text, run.report, schema);
    if (saved == Saved::Foreign) {
      fmt::print(stderr, "nccl-doctor: error: cannot compare '{}': it is {} output, not a `check --format json` report\n",
                 name, schema);
      ::close(fd);
      run.status = 2;
      return run;
    }
    if (saved == Saved::Report) {
      ::close(fd);
      // Built from this tool's JSON once; a hand-edited or damaged one is an
      // input error here, not a crash later in the comparison.
      if (std::string why = report_shape_problem(run.report); !why.empty()) {
        fmt::print(stderr, "nccl-doctor: error: cannot compare '{}': not a valid check report ({})\n", name, why);
        run.status = 2;
        return run;
      }
      if (nothing_in(run.report)) {
        fmt::print(stderr, "nccl-doctor: error: the report '{}' holds no NCCL debug line: nothing to compare\n", name);
        run.status = kExitNoNcclLines;
      }
      return run;
    }
    // A log on standard input is read from the spooled copy, still as `-`.
    if (is_stdin && (::lseek(fd, 0, SEEK_SET) < 0 || ::dup2(fd, STDIN_FILENO) < 0)) {
      fmt::print(stderr, "nccl-doctor: error: cannot read the spooled standard input: {}\n", std::strerror(errno));
      ::close(fd);
      run.status = 2;
      return run;
    }
    ::close(fd);
  }
  // A log (and the other inputs `check` reads): the same pipeline as `check`.
  JobModel model;
  std::vector<std::string> errors = read_model({arg}, model, config.timings);
  // It becomes a JSON report: the summary's parts that only JSON shows too.
  CheckConfig as_json = config;
  as_json.format = OutputFormat::Json;
  CheckReport report = analyze(model, as_json);
  report.input_errors = errors;
  run.status = exit_code(report, config.fail_on);
  if (run.status == 2 || run.status == kExitNoNcclLines) {
    run.report = json();
    return run;
  }
  run.status = 0;
  run.report = report_json(report);
  return run;
}

}  // namespace nd
