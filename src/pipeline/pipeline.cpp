#include "src/pipeline/pipeline.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "checks/hardware/fallback_causes.h"
#include "checks/registry.h"
#include "src/pipeline/live_reporter.h"
#include "src/pipeline/tee.h"
#include "src/model/line_feeder.h"
#include "src/model/model_builder.h"
#include "src/report/gpu_summary.h"
#include "src/report/json_renderer.h"
#include "src/report/junit_renderer.h"
#include "src/report/text_renderer.h"
#include "src/util/decompress.h"
#include "src/util/parallel.h"

namespace nd {
namespace {

class Timer {
 public:
  Timer(bool enabled, const char* stage)
      : enabled_(enabled), stage_(stage), start_(std::chrono::steady_clock::now()),
        cpu_start_(enabled ? process_cpu() : std::chrono::nanoseconds{}) {}
  ~Timer() {
    if (!enabled_) return;
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    fmt::print(stderr, "nccl-doctor: timing: {:<8} {:10.1f} ms, CPU {:10.1f} ms\n", stage_, ms,
               std::chrono::duration<double, std::milli>(process_cpu() - cpu_start_).count());
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

 private:
  // All threads' user and system time.
  static std::chrono::nanoseconds process_cpu() {
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
  }

  bool enabled_;
  const char* stage_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::nanoseconds cpu_start_;
};

constexpr size_t kMaxCheckThreads = 8;
// Below this many links and tree entries the rules take less time than
// starting a thread (a short log's whole check is a few milliseconds).
constexpr size_t kParallelCheckRecords = 20000;

// The first bytes of an input, enough to know a compressed file.
struct InputHead {
  char bytes[6] = {};
  size_t size = 0;
  uint64_t total = 0;  // bytes read in all

  void add(std::string_view data) {
    for (size_t i = 0; i < data.size() && size < sizeof bytes; ++i) bytes[size++] = data[i];
    total += data.size();
  }
  // "gzip", "zstd", "xz", "bzip2" or nullptr.
  const char* compression() const {
    std::string_view h(bytes, size);
    if (h.starts_with("\x1f\x8b")) return "gzip";
    if (h.starts_with("\x28\xb5\x2f\xfd")) return "zstd";
    if (h.starts_with(std::string_view("\xfd" "7zXZ\0", 6))) return "xz";
    if (h.starts_with("BZh")) return "bzip2";
    return nullptr;
  }
};

const char* decompressor(const char* format) {
  std::string_view f(format);
  return f == "gzip" ? "zcat" : f == "zstd" ? "zstdcat" : f == "xz" ? "xzcat" : "bzcat";
}

// What live mode does with the input as it is read.
struct Live {
  Tee* tee = nullptr;              // --tee: copy every byte to stdout
  LiveReporter* reporter = nullptr;  // findings while the input is open
  std::chrono::milliseconds silence{0};  // --hang-after
};

// `gpu07=smi.txt`: the output of host gpu07, unless a file has that name.
std::pair<std::string, std::string> split_host_input(const std::string& arg) {
  size_t eq = arg.find('=');
  if (eq == 0 || eq == std::string::npos || eq + 1 == arg.size()) return {{}, arg};
  struct stat st {};
  if (::stat(arg.c_str(), &st) == 0) return {{}, arg};
  for (char c : std::string_view(arg).substr(0, eq)) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return {{}, arg};
  }
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

// Reads one input into the builder; live mode copies its bytes out and
// judges the model as chunks merge. Returns an error text, empty on success;
// `bytes` gets the input's size.
std::string read_input(const std::string& arg, ModelBuilder& builder, const Live& live, uint64_t& bytes) {
  auto [host, path] = split_host_input(arg);
  bool is_stdin = path == "-";
  std::string name = is_stdin ? "<stdin>" : path;
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot open '{}': {}", path, std::strerror(errno));
  struct stat st {};
  bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (S_ISDIR(st.st_mode)) {
    if (!is_stdin) ::close(fd);
    return fmt::format("cannot read '{}': is a directory", path);
  }
  InputHead head;
  if (regular) {
    // A file is read by offset on every core; peek at its head apart.
    ssize_t n = ::pread(fd, head.bytes, sizeof head.bytes, 0);
    head.size = n > 0 ? static_cast<size_t>(n) : 0;
    head.total = static_cast<uint64_t>(st.st_size);
  }
  // A .gz, .zst or .xz file is inflated by a thread into a pipe, which is
  // then read as any stream is.
  std::unique_ptr<DecompressingPipe> inflater;
  if (std::optional<Codec> codec = codec_of(std::string_view(head.bytes, head.size)); codec && regular) {
    std::string error;
    // The inflater closes what it is given; standard input stays open.
    inflater = DecompressingPipe::start(is_stdin ? ::dup(fd) : fd, *codec, error);
    if (!inflater) return fmt::format("cannot read '{}': {}", path, error);
    fd = inflater->read_fd();
    regular = false;
    head = InputHead{};
  } else if (const char* format = head.compression()) {
    if (!is_stdin) ::close(fd);
    return fmt::format("cannot read '{}': it is {}-compressed; decompress it first: {} '{}' | nccl-doctor check -",
                       name, format, decompressor(format), path);
  }
  uint32_t file = builder.add_file(name, host);
  // Large reads, parsed on every core, merged in line order. A stream's head
  // is seen only as it passes.
  FeedOptions options;
  if (live.tee || !regular) {
    options.tap = [tee = live.tee, &head, regular](std::string_view data) {
      if (!regular) head.add(data);
      if (tee) tee->write(data);
    };
  }
  if (live.reporter) {
    options.after_merge = [reporter = live.reporter](bool more) { reporter->after_merge(more); };
    options.silence = live.silence;
    options.on_silence = [reporter = live.reporter](LineRef last, std::chrono::steady_clock::duration quiet) {
      reporter->on_silence(last, quiet);
    };
  }
  int err = feed_lines(fd, file, builder, options).error;
  if (inflater) {
    // The pipe and the file are the inflater's to close.
    if (std::string problem = inflater->finish(); !problem.empty() && err == 0) {
      return fmt::format("error reading '{}': {} (the lines before it were read)", name, problem);
    }
  } else if (!is_stdin) {
    ::close(fd);
  }
  bytes = head.total;
  if (err != 0) return fmt::format("error reading '{}': {}", name, std::strerror(err));
  if (const char* format = head.compression()) {
    return fmt::format("cannot read '{}': it is {}-compressed; decompress it first: {} FILE | nccl-doctor check -",
                       name, format, decompressor(format));
  }
  return {};
}

// An input that is a plain regular file (not standard input, not empty, not
// compressed), opened, or nullopt: then read_input() opens it again and says
// what it is.
struct PlainFile {
  int fd = -1;
  std::string name;
  std::string host;
  uint64_t size = 0;
};

std::optional<PlainFile> open_plain_file(const std::string& arg) {
  auto [host, path] = split_host_input(arg);
  // Only a regular file is opened here: opening a named pipe twice would
  // lose its writer. An empty one (a per-rank log not yet written) is read
  // as a stream, by read_input().
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return std::nullopt;
  // Per-rank files come by the thousand, and every call to the system costs
  // a microsecond or more in a virtual machine: what stat() said stands. Not
  // blocking: a path made a named pipe since would wait here for a writer
  // (its pread fails instead, and read_input() says what it is).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  InputHead head;
  ssize_t n = ::pread(fd, head.bytes, sizeof head.bytes, 0);
  head.size = n > 0 ? static_cast<size_t>(n) : 0;
  if (n > 0 && !codec_of(std::string_view(head.bytes, head.size)) && !head.compression()) {
    return PlainFile{fd, path, host, static_cast<uint64_t>(st.st_size)};
  }
  ::close(fd);
  return std::nullopt;
}

// Per-rank files come by the hundred: a run of plain files is read as one
// stream of chunks on every core, so that each small file does not wait for
// the one before. Opened a batch at a time, well inside the descriptor
// limit: an eighth of it, up to 128 (each batch starts the threads anew and
// ends with one core finishing its last file alone).
size_t files_per_batch() {
  static const size_t files = std::max<size_t>(1, descriptor_limit_share(8, 128));
  return files;
}

// Reads inputs[from, ...) while they are plain files, at most a batch;
// returns how many it read (0: inputs[from] is not one).
size_t read_plain_files(std::span<const std::string> inputs, ModelBuilder& builder, std::vector<std::string>& errors,
                        uint64_t& bytes) {
  std::vector<PlainFile> files;
  while (files.size() < std::min(files_per_batch(), inputs.size())) {
    std::optional<PlainFile> file = open_plain_file(inputs[files.size()]);
    if (!file) break;
    files.push_back(std::move(*file));
  }
  std::vector<FeedInput> feed;
  for (const PlainFile& f : files) feed.push_back({f.fd, builder.add_file(f.name, f.host), f.size});
  std::vector<FeedResult> results = feed_files(feed, builder);
  for (size_t i = 0; i < files.size(); ++i) {
    ::close(files[i].fd);
    bytes += files[i].size;
    if (results[i].error != 0) {
      std::string err = fmt::format("error reading '{}': {}", files[i].name, std::strerror(results[i].error));
      fmt::print(stderr, "nccl-doctor: error: {}\n", err);
      errors.push_back(std::move(err));
    }
  }
  return files.size();
}

bool nothing_to_judge(const JobModel& model) {
  return model.counters.nccl_lines == 0 && !model.gpu_side.measured() && model.probe_records.empty() &&
         model.probe_problems.empty();
}

// Why there is nothing to judge, in the user's terms.
std::string nothing_to_judge_reason(const JobModel& model, uint64_t input_bytes) {
  if (input_bytes == 0) return "the input is empty: did the job die before it printed anything?";
  if (!model.gpu_side.nccl_tests.empty()) {
    return "the nccl-tests output stops before its first result row: nothing was measured (did the test fail, or "
           "is the paste cut short?)";
  }
  if (!model.gpu_side.input_kinds.empty()) {
    return fmt::format("the {} output holds nothing this tool could read: no GPU row, matrix or result",
                       side_kind_name(model.gpu_side.input_kinds.front().second));
  }
  return "the input holds no NCCL debug line: was the job run with NCCL_DEBUG=INFO?";
}

// Reads every input into the builder, then finishes the model. Each
// unreadable input gets one message on stderr; returns those messages.
std::vector<std::string> read_all(const std::vector<std::string>& inputs, ModelBuilder& builder, bool timings,
                                  const Live& live) {
  std::vector<std::string> errors;
  uint64_t input_bytes = 0;
  {
    // Split, strip launcher prefixes, classify and assign in one streaming
    // pass: memory follows ranks x channels, not the length of the log.
    Timer t(timings, "read");
    uint64_t total = 0;
    for (size_t i = 0; i < inputs.size();) {
      if (!live.tee && !live.reporter) {
        if (size_t n = read_plain_files(std::span(inputs).subspan(i), builder, errors, total)) {
          i += n;
          continue;
        }
      }
      uint64_t bytes = 0;
      std::string err = read_input(inputs[i++], builder, live, bytes);
      total += bytes;
      if (!err.empty()) {
        fmt::print(stderr, "nccl-doctor: error: {}\n", err);
        errors.push_back(err);
      }
    }
    input_bytes = total;
  }
  {
    // Pending lines can only be assigned once every Init line is known.
    Timer t(timings, "model");
    builder.finish();
  }
  // Nothing from NCCL or around it is nothing to judge: say why on stderr
  // (the exit status says it to scripts), unless an unreadable input explains it.
  if (errors.empty() && nothing_to_judge(builder.model())) {
    if (builder.model().framework_errors.empty()) {
      fmt::print(stderr, "nccl-doctor: error: {}\n", nothing_to_judge_reason(builder.model(), input_bytes));
    } else {
      // The framework's own errors are judged; NCCL's side of them is missing.
      fmt::print(stderr,
                 "nccl-doctor: note: the input holds no NCCL debug line, only the framework's errors: rerun with "
                 "NCCL_DEBUG=INFO to see NCCL's side\n");
    }
  }
  return errors;
}

// Best effort: stderr is where the user looks; nothing is left to tell if it fails.
void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// The probe records among the inputs: every node rule judges each node, and
// the enabled ones report, named by host and cited at the record's line;
// record-invalid reports the records that could not be read. `recorded`
// gets every node rule's findings, for explain_fallbacks().
void judge_records(const JobModel& model, const CheckConfig& config, std::vector<RecordedNode>& recorded,
                   std::vector<Finding>& out) {
  const auto& rules = all_rules().rules();
  for (const auto& rec : model.probe_records) {
    std::string label = rec.host.empty() ? "host unknown (" + model.where(rec.line) + ")" : rec.host;
    ProbedNode node{label, &rec.node};
    const CheckContext ctx{model, config.options, std::span<const ProbedNode>(&node, 1)};
    FindingList sink;
    for (const auto& rule : rules) {
      if (rule->info().needs == Needs::Node) rule->check(ctx, sink);
    }
    RecordedNode& r = recorded.emplace_back();
    r.host = rec.host;
    r.file = model.files[rec.line.file];
    r.line = rec.line.line;
    for (auto& f : sink.findings) {
      // Ranks here are the log's: a record's launcher rank is not one.
      f.ranks.clear();
      if (!config.selection.enabled(f.id)) continue;
      Finding shown = f;
      shown.message = label + ": " + f.message;
      // A probe fact's sysfs path, cited at the record that carries it.
      for (auto& e : shown.evidence) e = {r.file, r.line, e.text.empty() ? e.file : e.file + ": " + e.text};
      if (shown.evidence.empty()) shown.evidence.push_back({r.file, r.line, label + ": nccl-doctor probe record"});
      if (shown.evidence.size() > config.options.max_evidence) shown.evidence.resize(config.options.max_evidence);
      out.push_back(std::move(shown));
    }
    r.findings = std::move(sink.findings);
  }
  const Rule* invalid = all_rules().rule("record-invalid");
  if (model.probe_problems.empty() || !config.selection.enabled(invalid->info().id)) return;
  // One input at a time: the rule cites line numbers of one source.
  std::map<uint32_t, std::vector<RecordProblem>> by_file;
  for (const auto& p : model.probe_problems) by_file[p.line.file].push_back({p.line.line, p.error, p.excerpt});
  for (const auto& [file, problems] : by_file) {
    FindingList sink;
    invalid->check(CheckContext{model, config.options, {}, problems, model.files[file]}, sink);
    std::move(sink.findings.begin(), sink.findings.end(), std::back_inserter(out));
  }
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
  CheckContext ctx{model, config.options};
  // Rules and the summary only read the finished model: they run on every
  // core, and the findings are joined in registry order, as one thread
  // would have made them.
  const auto& rules = log_rules().rules();
  std::vector<FindingList> sinks(rules.size());
  size_t records = 0;
  for (const auto& comm : model.comms) records += comm.edges.size() + comm.trees.size();
  size_t threads = records < kParallelCheckRecords ? 1 : worker_threads(kMaxCheckThreads);
  run_parallel(rules.size() + 1, threads, [&](size_t i) {
    if (i == rules.size()) {
      report.summary = summarize(model, SummaryParts{.channel_links = config.format == OutputFormat::Json});
    } else if (config.selection.enabled(rules[i]->info().id)) {
      rules[i]->check(ctx, sinks[i]);
    }
  });
  for (auto& sink : sinks) {
    std::move(sink.findings.begin(), sink.findings.end(), std::back_inserter(report.findings));
  }
  // Probe records beside the log: the nodes' own faults, and the causes of
  // the log's fallbacks on the hosts they describe.
  bool probed = !model.probe_records.empty() || !model.probe_problems.empty();
  if (probed) {
    std::vector<RecordedNode> recorded;
    std::vector<Finding> node_findings;
    judge_records(model, config, recorded, node_findings);
    explain_fallbacks(report.findings, recorded, config.options.max_evidence);
    std::move(node_findings.begin(), node_findings.end(), std::back_inserter(report.findings));
  }
  link_related(report.findings);
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(b.severity, a.id) < std::tie(a.severity, b.id);
  });
  report.gaps = find_gaps(model, report.summary, config.options.expect_busbw_gbs.has_value());
  judge(report, probed ? check_rules_with_probes() : log_rules(), config.selection, config.fail_on);
  return report;
}

std::vector<std::string> read_model(const std::vector<std::string>& inputs, JobModel& model, bool timings) {
  ModelBuilder builder(model);
  return read_all(inputs, builder, timings, Live{});
}

int run_check(const CheckConfig& config) {
  JobModel model;
  ModelBuilder builder(model);
  // With --tee, stdout carries the input and stderr everything of ours.
  Tee tee(STDOUT_FILENO);
  Live live;
  std::optional<LiveReporter> reporter;
  if (config.tee || config.hang_after) {
    // --hang-after alone tells only the hang it watches for.
    std::set<std::string_view> only;
    if (!config.tee) only.insert(log_rules().find("init-incomplete")->id);
    reporter.emplace(builder, log_rules(), config.selection, config.options,
                     [](std::string_view text) { write_all(STDERR_FILENO, text); }, std::move(only));
    live.reporter = &*reporter;
    live.silence = config.hang_after.value_or(std::chrono::milliseconds(0));
  }
  if (config.tee) live.tee = &tee;
  std::vector<std::string> errors = read_all(config.inputs, builder, config.timings, live);
  CheckReport report;
  {
    Timer t(config.timings, "checks");
    report = analyze(model, config);
    report.input_errors = std::move(errors);
  }
  std::string out;
  switch (config.format) {
    case OutputFormat::Text: out = render_text(report, TextStyle{config.color}); break;
    case OutputFormat::Json: out = render_json(report); break;
    case OutputFormat::Junit: out = render_junit(report); break;
  }
  if (config.tee) {
    // The verdict's exit status must not depend on who still reads stderr.
    write_all(STDERR_FILENO, out);
  } else if (!write_stdout(out)) {
    return 2;
  }
  return exit_code(report, config.fail_on);
}

}  // namespace nd
