#pragma once
// Classifies one NCCL WARN message (or a PyTorch `Last error:` body, which is
// the same text) and explains it: IB completion errors with their
// ibv_wc_status, verbs call failures, sockets, CUDA, network plugins.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd {

enum class WarnKind : uint8_t {
  IbCompletion, IbAsync, VerbsCall, Socket, SocketConfig, Bootstrap, Cuda, NetPlugin, VersionMismatch,
  DuplicateGpu, NoTransport, Proxy, Other,
};

// How bad the message is by itself; the checks map it to a finding's severity.
enum class WarnSeverity : uint8_t { Info, Warning, Error };

// `Mismatched NCCL version detected : rank %d version %d rank %d version %d`
// (2.23+), the versions decoded from NCCL_VERSION_CODE.
struct VersionMismatch {
  uint64_t rank_a = 0;
  std::string version_a;  // "2.23.4"
  uint64_t rank_b = 0;
  std::string version_b;
};

struct WarnClass {
  WarnKind kind = WarnKind::Other;
  WarnSeverity severity = WarnSeverity::Warning;
  std::string group;        // aggregation key: identical groups become one finding
  std::string explanation;  // what it means and what to do
  std::string peer;         // peer address as printed (ip or host), without <port>
  int status = -1;          // ibv_wc_status for IbCompletion
  bool consequence = false; // an after-effect of an earlier error (WR_FLUSH_ERR)
  bool carries_on = false;  // NCCL goes on without what failed (CollNet, a service thread): the traceback before it was caught
  bool collnet_fallback = false;  // `Cannot initialize CollNet, using point-to-point network instead`
  std::optional<VersionMismatch> mismatch;  // wherever the message holds NCCL's own check
};

WarnClass classify_warn(std::string_view message);

// "IBV_WC_RETRY_EXC_ERR"; "unknown (N)" for values outside the enum.
std::string ibv_wc_status_name(int status);
// One line on what the status usually means.
std::string_view ibv_wc_status_meaning(int status);

// NCCL_VERSION_CODE as a version: 2.9+ is major*10000 + minor*100 + patch,
// older ones major*1000 + minor*100 + patch; other digits come back as given.
std::string decode_version_code(std::string_view code);

}  // namespace nd
