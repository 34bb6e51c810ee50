#include "parsers/gpu/nccl_tests.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <re2/re2.h>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

constexpr size_t kMaxTokens = 64;  // a -I 1 table with timestamps has 27 fields
constexpr int kFooterNoise = 8;    // unclaimed lines after a footer before the run is over

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Splits on runs of blanks; returns how many tokens, at most kMaxTokens
// (one more means the line had more than that).
size_t split_fields(std::string_view s, std::array<std::string_view, kMaxTokens + 1>& out) {
  size_t n = 0;
  size_t i = 0;
  while (i < s.size() && n <= kMaxTokens) {
    while (i < s.size() && is_blank(s[i])) ++i;
    if (i == s.size()) break;
    size_t start = i;
    while (i < s.size() && !is_blank(s[i])) ++i;
    out[n++] = s.substr(start, i - start);
  }
  return n;
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string_view first_word(std::string_view s) { return s.substr(0, s.find(' ')); }

// "./build/all_reduce_perf_mpi" -> "all_reduce"; a name that is not a
// `*_perf` binary is kept as printed (a renamed copy still names its test).
std::string_view op_from_program(std::string_view prog) {
  if (size_t slash = prog.rfind('/'); slash != std::string_view::npos) prog.remove_prefix(slash + 1);
  if (prog.ends_with("_mpi")) prog.remove_suffix(4);
  if (prog.ends_with("_perf")) prog.remove_suffix(5);
  return prog;
}

// The binaries nccl-tests builds; a command line names one of them.
constexpr std::array<std::string_view, 11> kOps = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                                                   "reduce",     "alltoall",   "alltoallv",      "sendrecv",
                                                   "gather",     "scatter",    "hypercube"};

bool is_known_op(std::string_view op) {
  for (std::string_view known : kOps) {
    if (op == known) return true;
  }
  return false;
}

// A word ends where a shell word would: blank, quote, `;`, `&`, `|`.
bool ends_word(std::string_view s, size_t pos) {
  if (pos >= s.size()) return true;
  char c = s[pos];
  return is_blank(c) || c == '"' || c == '\'' || c == ';' || c == '&' || c == '|' || c == '\r';
}

// The test a command line runs: `mpirun ... ./build/all_reduce_perf -b 8`.
// Only a whole word whose last path part is a known `<op>_perf` counts.
std::string_view op_in_command(std::string_view text) {
  size_t from = 0;
  while (true) {
    size_t at = text.find("_perf", from);
    if (at == std::string_view::npos) return {};
    from = at + 5;
    size_t end = at + 5;
    if (text.substr(end).starts_with("_mpi")) end += 4;
    if (!ends_word(text, end)) continue;
    size_t begin = at;
    while (begin > 0 && (is_alpha(text[begin - 1]) || text[begin - 1] == '_')) --begin;
    if (begin > 0) {
      char c = text[begin - 1];
      if (!(is_blank(c) || c == '/' || c == '"' || c == '\'' || c == '=')) continue;
    }
    std::string_view op = text.substr(begin, at - begin);
    if (is_known_op(op)) return op;
  }
}

// The processes a launcher word before the test starts, and the test's
// `-t`/`-g` (getopt_long: `-g 8`, `-g8`, `--ngpus=8`, `--ngpus 8`).
struct Launch {
  std::optional<uint32_t> processes;  // 1 when the command is the test itself
  std::optional<uint32_t> threads = 1, gpus = 1;  // nullopt: given, but not readable here
};

// The words of the one command that runs the test: quotes dropped, cut at
// `;`, `&&`, `||`, `|` and redirections. Empty when no word runs `op`.
std::vector<std::string_view> command_words(std::string_view text, std::string_view op) {
  std::vector<std::string_view> words;
  bool found = false;
  for (size_t i = 0; i < text.size() && words.size() < 256;) {
    while (i < text.size() && is_blank(text[i])) ++i;
    size_t end = i;
    while (end < text.size() && !is_blank(text[end])) ++end;
    std::string_view w = text.substr(i, end - i);
    i = end;
    if (w.empty()) continue;
    bool ends_command = w.back() == ';';
    if (ends_command) w.remove_suffix(1);
    while (!w.empty() && (w.front() == '"' || w.front() == '\'')) w.remove_prefix(1);
    while (!w.empty() && (w.back() == '"' || w.back() == '\'')) w.remove_suffix(1);
    bool separator = w == "&&" || w == "||" || w == "|" || w == ";" || w == "&" || w.starts_with(">") ||
                     w.starts_with("2>") || w.starts_with("<");
    if (separator || ends_command) {
      if (!separator && !w.empty()) words.push_back(w);
      if (!separator && !found && op_in_command(w) == op) found = true;
      if (found) break;
      words.clear();
      continue;
    }
    if (!found && op_in_command(w) == op) found = true;
    words.push_back(w);
  }
  if (!found) words.clear();
  return words;
}

std::optional<Launch> launch_in_command(std::string_view text, std::string_view op) {
  std::vector<std::string_view> words = command_words(text, op);
  if (words.empty()) return std::nullopt;
  auto basename = [](std::string_view w) {
    if (size_t slash = w.rfind('/'); slash != std::string_view::npos) w.remove_prefix(slash + 1);
    return w;
  };
  auto number = [](std::string_view w) -> std::optional<uint32_t> {
    auto v = parse_u32(w);
    if (!v || *v == 0 || *v > 1'000'000) return std::nullopt;
    return v;
  };
  // A flag's value: `-n 8`, `-n8`, `--np=8`; `present` says the flag was there.
  auto value = [&](size_t& i, std::initializer_list<std::string_view> names, bool& present) -> std::optional<uint32_t> {
    std::string_view w = words[i];
    for (std::string_view name : names) {
      if (w == name) {
        present = true;
        return i + 1 < words.size() ? number(words[++i]) : std::nullopt;
      }
      if (w.starts_with(name) && w.size() > name.size()) {
        std::string_view rest = w.substr(name.size());
        if (rest.front() == '=') {
          present = true;
          return number(rest.substr(1));
        }
        if (name.size() == 2 && number(rest)) {
          present = true;
          return number(rest);
        }
      }
    }
    return std::nullopt;
  };
  size_t test = 0;
  while (op_in_command(words[test]) != op) ++test;
  Launch l;
  // Before the launcher or the test: a shell prompt (`user@host:~$`, `$`,
  // `+`), a shell that runs it (`bash -c`, `time`) and environment settings
  // (`env`, `NAME=value`).
  size_t first = 0;
  while (first < test) {
    std::string_view w = words[first];
    bool prompt = w == "$" || w == "#" || w == "+" || w == ">" || w.back() == '$' || w.back() == '#' ||
                  w == "bash" || w == "sh" || w == "-c" || w == "time" || w == "nohup" || w == "exec";
    bool setting = w == "env" || (w.find('=') != std::string_view::npos && w.find('=') > 0 &&
                                  w.substr(0, w.find('=')).find('/') == std::string_view::npos);
    if (!prompt && !setting) break;
    ++first;
  }
  if (first == test) {
    l.processes = 1;
  } else {
    std::string_view name = basename(words[first]);
    bool launcher =
        name == "mpirun" || name == "mpiexec" || name == "orterun" || name == "srun" || name == "mpiexec.hydra";
    if (!launcher) return l;  // `sh -c`, numactl, a wrapper script: the count is theirs
    for (size_t i = first + 1; i < test; ++i) {
      bool present = false;
      // Open MPI and MPICH: -n/-np; Slurm: -n/--ntasks.
      auto n = value(i, {"-np", "--np", "-n", "--n", "--ntasks"}, present);
      if (present) l.processes = n;
    }
  }
  for (size_t i = test + 1; i < words.size(); ++i) {
    bool gpus = false, threads = false;
    auto g = value(i, {"-g", "--ngpus"}, gpus);
    if (gpus) {
      l.gpus = g;
      continue;
    }
    auto t = value(i, {"-t", "--nthreads"}, threads);
    if (threads) l.threads = t;
  }
  return l;
}

// "Out of bounds values : 3 FAILED" -> ("3", "FAILED"); empty when no colon.
std::pair<std::string_view, std::string_view> footer_value(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {};
  std::string_view rest = trim(text.substr(colon + 1));
  size_t space = rest.find(' ');
  if (space == std::string_view::npos) return {rest, {}};
  return {rest.substr(0, space), trim(rest.substr(space + 1))};
}

// `out-of-place   in-place` over the table (v1 broadcast: `out-of-place`
// alone; -I 1 adds `(+ per-iteration)` to each), and no other words.
bool is_group_line(std::string_view text) {
  std::array<std::string_view, kMaxTokens + 1> f;
  size_t n = split_fields(text, f);
  if (n > 6) return false;
  for (size_t i = 0; i < n; ++i) {
    if (f[i] != "out-of-place" && f[i] != "in-place" && f[i] != "(+" && f[i] != "per-iteration)") return false;
  }
  return true;
}

// The data types and reductions nccl-tests names (`-d`, `-o`, and `none`
// for the collectives that reduce nothing).
bool is_type_name(std::string_view s) {
  static constexpr std::array<std::string_view, 14> kTypes = {
      "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16",
      "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2"};
  return std::find(kTypes.begin(), kTypes.end(), s) != kTypes.end();
}

bool is_redop_name(std::string_view s) {
  static constexpr std::array<std::string_view, 8> kRedops = {"sum", "prod", "max", "min", "avg", "mulsum", "premulsum", "none"};
  return std::find(kRedops.begin(), kRedops.end(), s) != kRedops.end();
}

// MPICH's -prepend-rank (and Open MPI's --tag-output without a job id) tag
// every write, and nccl-tests writes a row in pieces: `[0]  1048576 ...
// -1[0]  1626.5 ...`. The row without its `[N]` tags; empty when it has none.
std::string without_rank_tags(std::string_view text) {
  std::string out;
  bool any = false;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '[') {
      size_t d = i + 1;
      while (d < text.size() && is_digit(text[d])) ++d;
      if (d > i + 1 && d < text.size() && text[d] == ']') {
        out += ' ';
        i = d + 1;
        any = true;
        continue;
      }
    }
    out += text[i++];
  }
  return any ? out : std::string();
}

}  // namespace

bool NcclTestsReader::take(std::string_view payload, uint64_t line) {
  std::string_view text = trim(payload);
  if (text.empty()) return false;
  std::string_view row = text;
  std::string untagged;
  if ((is_digit(text.front()) || text.front() == '[') && text.find(']') != std::string_view::npos) {
    untagged = without_rank_tags(text);
    if (std::string_view bare = trim(untagged); !bare.empty() && is_digit(bare.front())) row = bare;
  }
  // Rows first: inside a table they are most of the lines.
  if (is_digit(row.front())) {
    if (state_ == State::Table && take_row(row, line)) return true;
    // A row of no table seen, or of another layout than the table's.
    if (take_bare_row(row, line)) return true;
  }
  bool claimed = text.front() == '#' ? take_comment(trim(text.substr(1)), line) : take_plain(text, line);
  if (claimed) {
    footer_noise_ = 0;
    return true;
  }
  note_command(text);
  continues_ = text.ends_with('\\');
  // After the footer come the memory summary, `#` and the last error; text
  // that goes on past a few lines is another program's.
  if (state_ == State::Footer && ++footer_noise_ > kFooterNoise) state_ = State::Idle;
  return false;
}

void NcclTestsReader::finish() { state_ = State::Idle; }

NcclTestsRun& NcclTestsReader::start_run(uint64_t line) {
  NcclTestsRun r;
  r.line = line;
  r.op = std::move(pending_op_);
  pending_op_.clear();
  run_processes_ = std::exchange(pending_processes_, std::nullopt);
  if (run_processes_ && pending_per_process_) r.launched_ranks = *run_processes_ * *pending_per_process_;
  pending_per_process_.reset();
  // Processes launched without MPI support each print a header of their
  // own, one after another before any row: the same command's, if its
  // nThread line matches (see take_plain). Each such process is one.
  inherited_op_ = r.op.empty() && run_ && state_ == State::Header && run().rows.empty() &&
                  run().failure_lines.empty() && !command_op_.empty() && run().op == command_op_;
  if (inherited_op_) {
    r.op = run().op;
    run_processes_ = 1;
  }
  out_.nccl_tests.push_back(std::move(r));
  out_.saw(SideKind::NcclTests);
  run_ = out_.nccl_tests.size() - 1;
  columns_.clear();
  min_tokens_ = 0;
  time_scale_ = 1;
  state_ = State::Header;
  return run();
}

NcclTestsRun& NcclTestsReader::header(Step step, uint64_t line) {
  bool same_run = state_ == State::Header && run_ && (step > step_ || (step == kRank && step_ == kRank));
  if (!same_run) start_run(line);
  step_ = step;
  return run();
}

// `text` is what follows the `#`.
bool NcclTestsReader::take_comment(std::string_view text, uint64_t line) {
  bool in_run = state_ != State::Idle;
  if (text.empty()) return in_run;  // the `#` lines between parts
  if (text.starts_with("nccl-tests version ")) {
    NcclTestsRun& r = header(kVersion, line);
    std::array<std::string_view, kMaxTokens + 1> f;
    size_t n = split_fields(text, f);
    if (n >= 3) r.version = std::string(f[2]);
    for (size_t i = 3; i < n && i < kMaxTokens; ++i) {
      if (f[i].starts_with("nccl-headers=")) r.nccl_headers = parse_u32(f[i].substr(13));
      if (f[i].starts_with("nccl-library=")) r.nccl_library = parse_u32(f[i].substr(13));
    }
    return true;
  }
  if (text.starts_with("Collective test starting: ")) {
    header(kStarting, line).op = std::string(op_from_program(trim(text.substr(26))));
    return true;
  }
  if (text.starts_with("Collective test concluded: ")) {
    if (!in_run) return false;
    if (run().op.empty()) run().op = std::string(op_from_program(trim(text.substr(27))));
    state_ = State::Footer;
    return true;
  }
  if (text.starts_with("nThread ")) return take_plain(text, line);
  if (text == "Using devices") {
    header(kUsing, line);
    return true;
  }
  if (text.starts_with("Rank ")) {
    // v1: `Rank  0 on host device  0 [0x1b] name`; v2.0: `Pid` added; v2.13.4: `Group`.
    // The host is printed `%10s`: an empty hostname (some containers) leaves
    // only blanks between `on` and `device`.
    static const RE2 kRankLine(
        R"(Rank\s+(\d+)(?:\s+Group\s+(\d+))?(?:\s+Pid\s+(\d+))?\s+on\s+(?:(\S+)\s+)?device\s+(\d+)\s+\[([^\]]*)\]\s*(.*))");
    re2::StringPiece rank, group, pid, host, device, bus, name;
    if (!RE2::FullMatch(text, kRankLine, &rank, &group, &pid, &host, &device, &bus, &name)) return false;
    NcclTestsRank r;
    r.rank = parse_u32(rank).value_or(0);
    if (!group.empty()) r.group = parse_u32(group);
    if (!pid.empty()) r.pid = parse_u64(pid);
    r.host = std::string(host);
    r.device = parse_u32(device).value_or(0);
    r.bus = std::string(bus);
    r.name = std::string(trim(name));
    header(kRank, line).ranks.push_back(std::move(r));
    return true;
  }
  std::string_view word = first_word(text);
  if (word == "size" || word == "bytes") return take_names(text, line);
  if (word == "out-of-place" && is_group_line(text)) {
    header(kGroups, line);
    return true;
  }
  if (word == "(B)") {
    if (state_ != State::Table || step_ != kNames) return false;
    step_ = kUnits;
    return true;
  }
  if (text.starts_with("Out of bounds values") || text.starts_with("Avg bus bandwidth")) return take_footer(text);
  if (!in_run) return false;
  if (text.starts_with("Reducing maxBytes to ")) {
    std::array<std::string_view, kMaxTokens + 1> f;
    if (split_fields(text, f) >= 4) run().reduced_max_bytes = parse_u64(f[3]);
    return true;
  }
  // Option notes, the memory summary, the last NCCL error and rccl-tests'
  // legend: part of the run, nothing to keep.
  static constexpr std::array<std::string_view, 8> kNotes = {
      "Blocking Enabled",         "Parallel Init Enabled", "Per-Iteration Report", "Swap Comms Enabled",
      "NCCL Tests compiled with", "GPU memory usage",      "error: ",              "Errors with asterisks"};
  for (std::string_view note : kNotes) {
    if (text.starts_with(note)) return true;
  }
  return false;
}

// Lines without `#`: v1 printed its nThread line, option notes and footer
// bare; failures are printed bare by every version.
bool NcclTestsReader::take_plain(std::string_view text, uint64_t line) {
  if (text.starts_with("nThread ")) {
    static const RE2 kNThreadLine(R"(nThread\s+(\d+)\s+nGpus\s+(\d+)\s+minBytes\s+(\d+)\s+maxBytes\s+(\d+)\b.*)");
    re2::StringPiece nthread, ngpus, minb, maxb;
    if (!RE2::FullMatch(text, kNThreadLine, &nthread, &ngpus, &minb, &maxb)) return false;
    NcclTestsRun& r = header(kNThread, line);
    r.nthread = parse_u32(nthread);
    r.ngpus = parse_u32(ngpus);
    r.min_bytes = parse_u64(minb);
    r.max_bytes = parse_u64(maxb);
    if (inherited_op_ && *run_ > 0) {
      const NcclTestsRun& before = out_.nccl_tests[*run_ - 1];
      if (std::tie(before.nthread, before.ngpus, before.min_bytes, before.max_bytes) !=
          std::tie(r.nthread, r.ngpus, r.min_bytes, r.max_bytes)) {
        r.op.clear();  // another run's header, not the same command's
        run_processes_.reset();
      }
      inherited_op_ = false;
    }
    // The header says what -t and -g came to.
    if (run_processes_ && r.nthread && r.ngpus) r.launched_ranks = *run_processes_ * *r.nthread * *r.ngpus;
    return true;
  }
  if (text.starts_with("Out of bounds values") || text.starts_with("Avg bus bandwidth")) return take_footer(text);
  if (state_ == State::Header &&
      (text.starts_with("Swap Comms Enabled") || text.starts_with("Blocking Enabled") ||
       text.starts_with("Parallel Init Enabled"))) {
    return true;
  }
  // Pasted into markdown outside a fence, `# Using devices` is a heading and
  // comes back without its `#`: inside a run, the header lines are taken bare
  // too (each still has to be in its own shape).
  if (state_ != State::Idle) {
    std::string_view word = first_word(text);
    if (text == "Using devices" || word == "Rank" || word == "size" || word == "bytes" || word == "out-of-place" ||
        word == "(B)") {
      return take_comment(text, line);
    }
  }
  return take_failure(text, line);
}

bool NcclTestsReader::take_failure(std::string_view text, uint64_t line) {
  if (text.find("failure") == std::string_view::npos && text.find("Test timeout") == std::string_view::npos) {
    return false;
  }
  // `host: ` may still lead (when the caller did not take it for a launcher
  // prefix). v2.0+: NCCLCHECK/CUDACHECK, TESTCHECK's trace and the timeout.
  static const RE2 kTest(R"((?:\S+: )?(?:Test (?:NCCL|CUDA) failure \S+:\d+ '.*|Test timeout \(\d+s\) \S+:\d+))"
                         R"(|\.\. \S+(?: pid \d+)?: Test failure \S+:\d+)");
  // v1 printed `NCCL failure common.cu:874 'msg'`: too plain to open a run.
  static const RE2 kV1(R"((?:NCCL|Cuda) failure \S+\.cu:\d+ '.*)");
  bool strict = RE2::FullMatch(text, kTest);
  if (!strict && !(state_ != State::Idle && RE2::FullMatch(text, kV1))) return false;
  if (!run_) {
    // A rank whose stream never had rank 0's header: a run of its failures.
    start_run(line);
    state_ = State::Idle;
  }
  run().failure_lines.push_back(line);
  run().failure_texts.emplace_back(text);
  return true;
}

bool NcclTestsReader::take_names(std::string_view text, uint64_t line) {
  std::array<std::string_view, kMaxTokens + 1> f;
  size_t n = split_fields(text, f);
  if (n > kMaxTokens) return false;
  std::vector<Column> cols;
  cols.reserve(n);
  int times = 0;
  uint8_t group = 0;  // the second time column starts the in-place group
  bool busbw = false, cputime = false;
  for (size_t i = 0; i < n; ++i) {
    std::string_view name = f[i];
    Column c;
    if (name == "size" || name == "bytes") {
      c.col = Col::Size;
    } else if (name == "count" || name == "N") {
      c.col = Col::Count;
    } else if (name == "type") {
      c.col = Col::Type;
    } else if (name == "redop" || name == "op") {
      c.col = Col::Redop;
    } else if (name == "root") {
      c.col = Col::Root;
    } else if (name == "time" || name == "cputime") {
      cputime = name == "cputime";
      c.col = Col::Time;
      if (times++ > 0) group = 1;
    } else if (name == "algbw") {
      c.col = Col::AlgBw;
    } else if (name == "busbw") {
      c.col = Col::BusBw;
      busbw = true;
    } else if (name == "#wrong") {
      c.col = Col::Wrong;
    } else if (name == "error" || name == "res") {
      c.col = Col::Error;
    } else if (name == "timestamp") {
      c.col = Col::Stamp;
    }  // i_min, i_max, i_p99, i_cv% (-I 1) and anything new: one field each, skipped
    c.group = group;
    cols.push_back(c);
    if (c.col == Col::Stamp) break;  // its value has blanks in it; it ends the row
  }
  if (cols.empty() || cols.front().col != Col::Size || times == 0 || !busbw) return false;
  NcclTestsRun& r = header(kNames, line);
  r.cputime = cputime;
  columns_ = std::move(cols);
  min_tokens_ = columns_.size();
  // v1.0 named its columns `bytes N ...` and printed the time in ms.
  time_scale_ = f[0] == "bytes" ? 1000.0 : 1.0;
  state_ = State::Table;
  return true;
}

bool NcclTestsReader::take_row(std::string_view text, uint64_t line) {
  std::optional<NcclTestsRow> row = parse_row(text, line);
  if (!row) return false;
  run().rows.push_back(std::move(*row));
  return true;
}

bool NcclTestsReader::take_bare_row(std::string_view text, uint64_t line) {
  std::array<std::string_view, kMaxTokens + 1> f;
  size_t n = split_fields(text, f);
  // size count type [redop] [root], then time algbw busbw and #wrong (or
  // the older error) for out-of-place and in-place: 11 to 13 fields.
  if (n < 11 || n > 13 || !parse_u64(f[0]) || !parse_u64(f[1]) || !is_type_name(f[2])) return false;
  std::vector<Column> cols = {{Col::Size, 0}, {Col::Count, 0}, {Col::Type, 0}};
  if (n >= 12) cols.push_back({is_redop_name(f[3]) ? Col::Redop : Col::Root, 0});
  if (n == 13) {
    if (cols.back().col != Col::Redop) return false;
    cols.push_back({Col::Root, 0});
  }
  // The layout with both redop and root counts `#wrong` (`%g`: a large
  // count comes as `2.68435e+08`); the older ones print a relative `error`.
  Col check = n == 13 ? Col::Wrong : Col::Error;
  for (uint8_t group = 0; group < 2; ++group) {
    for (Col c : {Col::Time, Col::AlgBw, Col::BusBw, check}) cols.push_back({c, group});
  }
  std::vector<Column> kept = std::exchange(columns_, cols);
  size_t kept_min = std::exchange(min_tokens_, cols.size());
  double kept_scale = std::exchange(time_scale_, 1.0);
  std::optional<NcclTestsRow> row = parse_row(text, line);
  columns_ = std::move(kept);
  min_tokens_ = kept_min;
  time_scale_ = kept_scale;
  if (!row) return false;
  // The rows of a run whose header was not pasted, or of one whose header
  // lost (or garbled) its column names; else a new run.
  bool same_run = run_ && (state_ == State::Header || (state_ == State::Table && run().rows.empty()));
  if (!same_run) start_run(line);
  step_ = kNames;
  columns_ = std::move(cols);
  min_tokens_ = columns_.size();
  time_scale_ = 1;
  state_ = State::Table;
  run().rows.push_back(std::move(*row));
  return true;
}

std::optional<NcclTestsRow> NcclTestsReader::parse_row(std::string_view text, uint64_t line) const {
  std::array<std::string_view, kMaxTokens + 1> f;
  size_t n = split_fields(text, f);
  bool stamped = !columns_.empty() && columns_.back().col == Col::Stamp;
  if (n > kMaxTokens || n < min_tokens_ || (!stamped && n != min_tokens_)) return std::nullopt;
  NcclTestsRow row;
  row.line = line;
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column c = columns_[i];
    std::string_view v = f[i];
    bool ip = c.group == 1;
    switch (c.col) {
      case Col::Size: {
        auto x = parse_u64(v);
        if (!x) return std::nullopt;
        row.size_bytes = *x;
        break;
      }
      case Col::Count: {
        auto x = parse_u64(v);
        if (!x) return std::nullopt;
        row.count = *x;
        break;
      }
      case Col::Type:
        if (!is_alpha(v.front())) return std::nullopt;
        row.type = std::string(v);
        break;
      case Col::Redop:
        if (!is_alpha(v.front())) return std::nullopt;
        row.redop = std::string(v);
        break;
      case Col::Root: {
        auto x = parse_i64(v);
        if (!x) return std::nullopt;
        row.root = *x;
        break;
      }
      case Col::Time:
      case Col::AlgBw:
      case Col::BusBw: {
        auto x = parse_double(v);
        if (!x) return std::nullopt;
        if (c.col == Col::Time) {
          (ip ? row.ip_time_us : row.oop_time_us) = *x * time_scale_;
        } else if (c.col == Col::AlgBw) {
          (ip ? row.ip_algbw_gbs : row.oop_algbw_gbs) = *x;
        } else {
          (ip ? row.ip_busbw_gbs : row.oop_busbw_gbs) = *x;
        }
        break;
      }
      case Col::Wrong:
      case Col::Error: {
        if (v == "N/A") break;  // -c 0: no check
        if (v.back() == '*') v.remove_suffix(1);  // rccl-tests marks errors over its threshold
        auto x = parse_double(v);
        if (!x || *x < 0) return std::nullopt;
        if (c.col == Col::Error) {
          (ip ? row.ip_error : row.oop_error) = *x;
        } else {
          // `%6g`: a large count may come as `1.2e+06`. Rounded here, not by
          // std::llround, the binary's one call into libm, a shared library
          // more to load at every start.
          (ip ? row.ip_wrong : row.oop_wrong) =
              *x < 0x1p63 ? static_cast<uint64_t>(*x + 0.5) : std::numeric_limits<uint64_t>::max();
        }
        break;
      }
      case Col::Stamp:
        row.timestamp = std::string(trim(text.substr(static_cast<size_t>(v.data() - text.data()))));
        break;
      case Col::Skip:
        break;
    }
  }
  return row;
}

bool NcclTestsReader::take_footer(std::string_view text) {
  if (state_ == State::Idle || !run_) return false;
  auto [value, status] = footer_value(text);
  NcclTestsRun& r = run();
  if (text.starts_with("Out of bounds values")) {
    auto n = parse_u64(value);
    if (!n) return false;
    r.out_of_bounds = n;
    r.out_of_bounds_failed = status == "FAILED" || *n > 0;
  } else {
    // No rows make it `nan`/`-nan`: no average then.
    auto bw = parse_double(value);
    if (bw && std::isfinite(*bw)) r.avg_busbw_gbs = bw;
    if (status == "OK") r.avg_busbw_ok = true;
    if (status == "FAILED") r.avg_busbw_ok = false;
  }
  state_ = State::Footer;
  return true;
}

void NcclTestsReader::note_command(std::string_view text) {
  if (text.find("_perf") == std::string_view::npos) return;
  std::string_view op = op_in_command(text);
  if (op.empty()) return;
  pending_op_ = std::string(op);
  command_op_ = pending_op_;
  pending_processes_.reset();
  pending_per_process_.reset();
  // The last line of a command split with `\`: its launcher is on the lines before.
  if (auto l = launch_in_command(text, op); l && !continues_) {
    pending_processes_ = l->processes;
    if (l->threads && l->gpus) pending_per_process_ = *l->threads * *l->gpus;
  }
}

}  // namespace nd
