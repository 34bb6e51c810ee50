#include "parsers/framework_lines.h"

#include <re2/re2.h>

#include "parsers/envelope.h"
#include "parsers/guarded_pattern.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

std::optional<WatchdogTimeout> parse_watchdog(const std::string& text) {
  static const GuardedPattern kWork("WorkNCCL(",
      R"(WorkNCCL\(SeqNum=(\d+), OpType=(\w+).*?Timeout\(ms\)=(\d+)\) ran for (\d+) milliseconds)");
  static const GuardedPattern kRank("[Rank ", R"(\[Rank (\d+)\])");
  std::string seq, op, timeout, ran, rank;
  if (!kWork.partial_match(text, &seq, &op, &timeout, &ran)) return std::nullopt;
  WatchdogTimeout t{parse_u64(seq).value_or(0), op, parse_u64(timeout).value_or(0), parse_u64(ran).value_or(0), {}};
  if (kRank.partial_match(text, &rank)) t.rank = parse_u32(rank).value_or(0);
  return t;
}

std::optional<WatchdogStuck> parse_watchdog_stuck(const std::string& text) {
  static const GuardedPattern kStuck("watchdog got stuck for ", R"(watchdog got stuck for (\d+) seconds)");
  static const GuardedPattern kRank("Rank ", R"(\bRank (\d+)\])");
  std::string seconds, rank;
  if (!kStuck.partial_match(text, &seconds)) return std::nullopt;
  WatchdogStuck w{parse_u64(seconds).value_or(0), {}};
  if (kRank.partial_match(text, &rank)) w.rank = parse_u32(rank);
  return w;
}

// Anchored on PyTorch's own shapes (`file.cpp:123, ` and `exception: `), so
// that quoted code or a grep pattern naming "NCCL error" is not taken for one.
std::optional<NcclErrorReport> parse_nccl_error(const std::string& text) {
  static const GuardedPattern kIn("NCCL error in: ",
      R"(NCCL error in: [^\s,]+:\d+, ([a-z].*?)(?:, NCCL version (\S+))?$)");
  static const GuardedPattern kAsync(": NCCL error: ", R"((?:exception|Error): NCCL error: ([a-z].*)$)");
  NcclErrorReport r;
  if (kIn.partial_match(text, &r.error, &r.version) || kAsync.partial_match(text, &r.error)) return r;
  return std::nullopt;
}

constexpr std::pair<uint32_t, std::string_view> kSignals[] = {
    {4, "SIGILL"}, {6, "SIGABRT"}, {7, "SIGBUS"}, {8, "SIGFPE"}, {9, "SIGKILL"}, {11, "SIGSEGV"}, {15, "SIGTERM"},
};

CrashReport crash_of(uint32_t signal) {
  for (const auto& [number, name] : kSignals) {
    if (number == signal) return {signal, std::string(name)};
  }
  return {signal, "signal " + std::to_string(signal)};
}

// strsignal()'s words as runtimes print them.
std::optional<CrashReport> crash_named(std::string_view words) {
  constexpr std::pair<std::string_view, uint32_t> kWords[] = {
      {"Segmentation fault", 11}, {"Aborted", 6}, {"Bus error", 7}, {"Illegal instruction", 4},
      {"Floating point exception", 8}, {"Killed", 9},
  };
  for (const auto& [word, signal] : kWords) {
    if (words.starts_with(word)) return crash_of(signal);
  }
  return std::nullopt;
}

std::optional<CrashReport> parse_crash(const std::string& text) {
  // "ignal ": in each of the three words.
  static const GuardedPattern kNumbered("ignal ", R"((?:Caught signal|exited on signal|Signal) (\d+) \()");
  static const GuardedPattern kOmpi("] Signal: ", R"(^\[[^\]]*\] Signal: [A-Za-z ]+ \((\d+)\)$)");
  static const GuardedPattern kExitcode("exitcode", R"(exitcode\s*: -(\d+) \(pid: \d+\))");
  static const RE2 kNamed(R"((?:^srun: error: [^:]+: tasks? [0-9,\-]+: |^Fatal Python error: |^(?:/bin/(?:ba)?sh: line \d+: +\d+ )?))"
                          R"(((?:Segmentation fault|Aborted|Bus error|Illegal instruction|Floating point exception))"
                          R"((?: \(core dumped\))?)$)");
  std::string number, words;
  if (kNumbered.partial_match(text, &number) || kOmpi.partial_match(text, &number) ||
      kExitcode.partial_match(text, &number)) {
    auto signal = parse_u32(number);
    if (signal && *signal > 0 && *signal < 65) return crash_of(*signal);
    return std::nullopt;
  }
  if (RE2::PartialMatch(text, kNamed, &words)) return crash_named(words);
  return std::nullopt;
}

}  // namespace

FrameworkLine parse_framework_line(FrameworkKind kind, std::string_view text) {
  FrameworkLine out;
  out.kind = kind;
  std::string scratch;
  std::string_view clean = strip_control(text, scratch);
  Envelope env = strip_envelope(clean);
  std::string_view payload = env.payload;
  // A `Last error:` message may sit on the same line ("Last error: socket...").
  if (kind == FrameworkKind::LastError) {
    if (size_t pos = payload.find("Last error:"); pos != std::string_view::npos) {
      payload = payload.substr(pos + 11);
      while (!payload.empty() && payload.front() == ' ') payload.remove_prefix(1);
      out.opens_last_error = payload.empty();
    }
  }
  out.clean = std::string(clean);
  out.launcher_host = std::string(env.launcher_host);
  out.launcher_rank = env.launcher_rank;
  out.text = valid_utf8(payload.substr(0, kMaxFrameworkText));
  switch (kind) {
    case FrameworkKind::WatchdogTimeout: out.watchdog = parse_watchdog(out.text); break;
    case FrameworkKind::WatchdogStuck: out.stuck = parse_watchdog_stuck(out.text); break;
    case FrameworkKind::NcclError: out.nccl_error = parse_nccl_error(out.text); break;
    case FrameworkKind::LastError:
      if (!out.text.empty()) out.cls = classify_warn(out.text);
      break;
    case FrameworkKind::Crash: out.crash = parse_crash(out.text); break;
    case FrameworkKind::CrashFrame: break;
  }
  return out;
}

}  // namespace nd
