#pragma once
// Classifies one NCCL WARN message (or a PyTorch `Last error:` body, which is
// the same text) and explains it: IB completion errors with their
// ibv_wc_status, verbs call failures, sockets, CUDA, network plugins.

#include <string>
#include <string_view>

#include "checks/finding.h"
#include "src/util/errno_names.h"

namespace nd {

enum class WarnKind : uint8_t {
  IbCompletion, IbAsync, VerbsCall, Socket, SocketConfig, Bootstrap, Cuda, NetPlugin, VersionMismatch,
  DuplicateGpu, NoTransport, Proxy, Other,
};

struct WarnClass {
  WarnKind kind = WarnKind::Other;
  Severity severity = Severity::Warning;
  std::string group;        // aggregation key: identical groups become one finding
  std::string explanation;  // what it means and what to do
  std::string peer;         // peer address as printed (ip or host), without <port>
  int status = -1;          // ibv_wc_status for IbCompletion
  bool consequence = false; // an after-effect of an earlier error (WR_FLUSH_ERR)
};

WarnClass classify_warn(std::string_view message);

// "IBV_WC_RETRY_EXC_ERR"; "unknown (N)" for values outside the enum.
std::string ibv_wc_status_name(int status);
// One line on what the status usually means.
std::string_view ibv_wc_status_meaning(int status);

}  // namespace nd
