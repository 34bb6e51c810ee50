#pragma once
// PyTorch's lines around NCCL's own (ProcessGroupNCCL and friends): the
// watchdog's collective timeout, `NCCL error in: ...` and `Last error:` with
// ncclGetLastError's text, on the same line or alone on the next.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parsers/warn_classes.h"

namespace nd {

// Crash: a launcher's, a runtime's or the shell's report that a process died
// on a signal; CrashFrame: a backtrace frame that names NCCL (`pncclAllReduce`,
// `libnccl.so.2`), which tells where such a crash happened.
enum class FrameworkKind : uint8_t { WatchdogTimeout, WatchdogStuck, NcclError, LastError, Crash, CrashFrame };

// `Caught signal 11 (Segmentation fault: ...)` (UCX), `Signal 6 (SIGABRT)
// received by PID 4242` (torch.distributed.elastic), `exitcode  : -11`
// (torchrun), `exited on signal 11 (Segmentation fault)` and `Signal:
// Segmentation fault (11)` (Open MPI), `srun: error: node: task 3:
// Segmentation fault`, `Fatal Python error: Segmentation fault`, the shell's
// `Segmentation fault (core dumped)`.
struct CrashReport {
  uint32_t signal = 0;  // 0 when only the name was printed
  std::string name;     // "SIGSEGV"
};

// `Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808,
// OpType=ALLREDUCE, ..., Timeout(ms)=600000) ran for 600020 milliseconds`.
struct WatchdogTimeout {
  uint64_t seq = 0;
  std::string op;  // "ALLREDUCE"
  uint64_t timeout_ms = 0;
  uint64_t ran_ms = 0;
  std::optional<uint32_t> rank;  // `[Rank N]`, when printed
};

// PyTorch's watchdog reporting a timeout or itself stuck: hang evidence.
inline bool is_watchdog_report(FrameworkKind kind) {
  return kind == FrameworkKind::WatchdogTimeout || kind == FrameworkKind::WatchdogStuck;
}

// PyTorch's heartbeat monitor: `ProcessGroupNCCL's watchdog got stuck for 480
// seconds without making progress in monitoring enqueued collectives`: a
// NCCL or CUDA call blocks the watchdog thread itself.
struct WatchdogStuck {
  uint64_t seconds = 0;
  std::optional<uint32_t> rank;  // `Rank N]`, when printed
};

// `NCCL error in: <file>:<line>, <error>[, NCCL version X]` and the async
// `... raised the following async exception: NCCL error: <error>`.
struct NcclErrorReport {
  std::string error;    // "unhandled system error (run with NCCL_DEBUG=INFO for details)"
  std::string version;  // "2.18.6", or empty
};

// Text longer than this is cut: enough for any message, bounded for a
// flattened log.
inline constexpr size_t kMaxFrameworkText = 4096;

struct FrameworkLine {
  FrameworkKind kind = FrameworkKind::LastError;
  std::string clean;          // the line without control bytes: the evidence
  std::string launcher_host;  // a pdsh-style prefix's host, as printed
  std::optional<uint32_t> launcher_rank;  // [rankN]: / srun label / OMPI tag
  // `Last error:` and nothing after it: the message is the next line, which
  // holds no marker of its own. Nothing else of the line is recorded.
  bool opens_last_error = false;
  // The payload without launcher prefixes (for LastError: the message after
  // `Last error:`), valid UTF-8, at most kMaxFrameworkText bytes. An empty
  // LastError text is no message.
  std::string text;
  std::optional<WatchdogTimeout> watchdog;    // WatchdogTimeout lines in PyTorch's shape
  std::optional<WatchdogStuck> stuck;         // WatchdogStuck lines
  std::optional<NcclErrorReport> nccl_error;  // NcclError lines in PyTorch's shape
  std::optional<CrashReport> crash;           // Crash lines in one of the shapes above
  WarnClass cls;  // LastError: the message read as a WARN, which it is
};

// Reads one line (or a carriage-return part of one) that the line parser
// took for a `kind` line.
FrameworkLine parse_framework_line(FrameworkKind kind, std::string_view text);

}  // namespace nd
