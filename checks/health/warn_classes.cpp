#include "checks/health/warn_classes.h"

#include <algorithm>

#include <fmt/format.h>
#include <re2/re2.h>

#include "src/util/numbers.h"

namespace nd {
namespace {

struct StatusInfo {
  const char* name;
  const char* meaning;
};

// ibv_wc_status from <infiniband/verbs.h>; meanings from the NCCL format notes §7.1.
constexpr StatusInfo kStatus[] = {
    {"IBV_WC_SUCCESS", "success"},
    {"IBV_WC_LOC_LEN_ERR", "local length error: message sizes do not match"},
    {"IBV_WC_LOC_QP_OP_ERR", "local QP operation error: bad work request or QP state"},
    {"IBV_WC_LOC_EEC_OP_ERR", "local EEC operation error (rare)"},
    {"IBV_WC_LOC_PROT_ERR",
     "local protection error: GPUDirect RDMA memory is not reachable by the NIC (PCIe ACS or IOMMU on, "
     "nvidia-peermem missing); fix ACS/IOMMU or lower NCCL_NET_GDR_LEVEL"},
    {"IBV_WC_WR_FLUSH_ERR", "work request flushed: the QP had already failed, a consequence of an earlier error"},
    {"IBV_WC_MW_BIND_ERR", "memory window bind error (rare)"},
    {"IBV_WC_BAD_RESP_ERR", "bad response (rare)"},
    {"IBV_WC_LOC_ACCESS_ERR", "local access error: memory registration or permissions"},
    {"IBV_WC_REM_INV_REQ_ERR", "remote invalid request: the peer rejected the request (peer died or its MR is gone)"},
    {"IBV_WC_REM_ACCESS_ERR", "remote access error: the peer rejected the access (peer died or its MR is gone)"},
    {"IBV_WC_REM_OP_ERR", "remote operation error: the peer could not complete the request (peer died)"},
    {"IBV_WC_RETRY_EXC_ERR",
     "transport retries exhausted: link down, bad cable or switch port, RoCE routing or GID mismatch, congestion, "
     "or the peer is gone; check the port counters of both NICs and the link; NCCL_IB_TIMEOUT and "
     "NCCL_IB_RETRY_CNT set the retry budget"},
    {"IBV_WC_RNR_RETRY_EXC_ERR", "receiver-not-ready retries exhausted: the peer stopped posting receives"},
    {"IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation (rare)"},
    {"IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request (rare)"},
    {"IBV_WC_REM_ABORT_ERR", "remote abort (rare)"},
    {"IBV_WC_INV_EECN_ERR", "invalid EEC number (rare)"},
    {"IBV_WC_INV_EEC_STATE_ERR", "invalid EEC state (rare)"},
    {"IBV_WC_FATAL_ERR", "fatal error: the NIC or its driver failed"},
    {"IBV_WC_RESP_TIMEOUT_ERR", "response timeout"},
    {"IBV_WC_GENERAL_ERR", "general error"},
};

std::string strip_port(std::string_view peer) {
  size_t lt = peer.find('<');
  return std::string(peer.substr(0, lt));
}

WarnClass make(WarnKind kind, Severity sev, std::string group, std::string explanation) {
  WarnClass c;
  c.kind = kind;
  c.severity = sev;
  c.group = std::move(group);
  c.explanation = std::move(explanation);
  return c;
}

std::string errno_meaning(int err, std::string_view call) {
  switch (err) {
    case 110:
      return "ETIMEDOUT: the peer QP never answered; on rail-only fabrics the NICs are not cross-rail connected "
             "(try NCCL_CROSS_NIC=0), else a link or routing problem";
    case 22:
      return call == "ibv_modify_qp" ? "EINVAL: usually a wrong RoCE GID (check NCCL_IB_GID_INDEX)"
                                     : "EINVAL: invalid argument";
    case 19: return "ENODEV: the device or port is gone (link down, driver reset)";
    case 12:
      return call == "ibv_reg_mr" ? "ENOMEM: memory registration failed; raise the locked-memory limit (ulimit -l "
                                    "unlimited, memlock in limits.conf or the container runtime)"
                                  : "ENOMEM: out of memory";
    case 14: return "EFAULT: bad address; for GPU memory, GPUDirect RDMA (nvidia-peermem or DMA-BUF) is missing";
    case 1:
    case 13: return "permission denied; the container may lack IPC_LOCK or access to /dev/infiniband";
    default: return {};
  }
}

}  // namespace

std::string ibv_wc_status_name(int status) {
  if (status >= 0 && static_cast<size_t>(status) < std::size(kStatus)) return kStatus[status].name;
  return fmt::format("unknown ({})", status);
}

std::string_view ibv_wc_status_meaning(int status) {
  if (status >= 0 && static_cast<size_t>(status) < std::size(kStatus)) return kStatus[status].meaning;
  return "not an ibv_wc_status value";
}

WarnClass classify_warn(std::string_view message) {
  re2::StringPiece msg(message.data(), message.size());
  // §7.1: every generation of the completion WARN, 2.4 to 2.30.
  static const RE2 kCompletion(
      R"(NET/IB(?:/GIN)? ?: Got completion (?:from peer (\S+) )?with (?:error |status=)(?:(\w+)\()?(\d+))");
  static const RE2 kVendor(R"(vendor[ _]err[= ](\d+))");
  static const RE2 kHca(R"(hca (\S+))");
  std::string peer, status_name, status, vendor, hca;
  if (RE2::PartialMatch(msg, kCompletion, &peer, &status_name, &status)) {
    int s = static_cast<int>(std::min<uint32_t>(parse_u32(status).value_or(9999), 9999));
    WarnClass c = make(WarnKind::IbCompletion, Severity::Error, fmt::format("ib-completion/{}", s), "");
    c.status = s;
    c.peer = strip_port(peer);
    c.consequence = s == 5;
    std::string detail = fmt::format("status {} {}: {}", s, ibv_wc_status_name(s), ibv_wc_status_meaning(s));
    if (RE2::PartialMatch(msg, kVendor, &vendor)) {
      uint64_t v = parse_u64(vendor).value_or(0);
      detail += fmt::format("; vendor_err {} (0x{:x}{})", v, v, v == 129 ? ": retry counter exceeded" : "");
    }
    if (RE2::PartialMatch(msg, kHca, &hca)) detail += fmt::format("; local HCA {}", hca);
    c.explanation = std::move(detail);
    return c;
  }
  static const RE2 kAsync(R"(NET/IB ?: (?:\S+ )?(?:Got async|async fatal|Got async error))");
  // NCCL warns on every async event but COMM_EST; these name the port coming
  // up or the subnet manager's bookkeeping (ibv_event_type_str), not a fault.
  static const RE2 kBenignAsync(
      R"(Got async event ?: (?:port active|LID change|P_Key change|SM change|client reregistration|GID table change)\s*$)");
  if (RE2::PartialMatch(msg, kBenignAsync)) {
    return make(WarnKind::IbAsync, Severity::Info, "ib-async-benign",
                "the NIC reported a port or subnet event (a port coming up, a LID, GID or SM change): no fault by "
                "itself; it matters only after a 'port error' or with IB completion errors");
  }
  if (RE2::PartialMatch(msg, kAsync)) {
    return make(WarnKind::IbAsync, Severity::Error, "ib-async",
                "the NIC reported an asynchronous error (port down, QP or CQ fatal): check the link and the port "
                "counters");
  }
  // §7.2: `Call to ibv_X failed with error %s[ errno %d]`, and the 2.24+ modify_qp form.
  static const RE2 kVerbs(R"(Call to (ibv_\w+) failed(?: with (?:error )?(?:(\d+) )?([^,]*?))?(?: errno (\d+))?(?:,|$))");
  std::string call, code, text, err;
  if (RE2::PartialMatch(msg, kVerbs, &call, &code, &text, &err)) {
    int e = static_cast<int>(
        std::min<uint32_t>(parse_u32(!err.empty() ? err : code).value_or(0), 99999));
    std::string why = e ? errno_meaning(e, call) : std::string();
    if (why.empty() && call == "ibv_reg_mr") {
      why = "memory registration failed: usually the locked-memory limit (ulimit -l) or missing GPUDirect RDMA "
            "support (nvidia-peermem / DMA-BUF)";
    }
    std::string group = fmt::format("verbs/{}/{}", call, e);
    std::string expl = fmt::format("{} failed{}{}", call, e ? fmt::format(" with {} ({})", e, errno_name(e)) : "",
                                   why.empty() ? std::string() : ": " + why);
    return make(WarnKind::VerbsCall, Severity::Error, group, expl);
  }
  if (message.find("Failed to open libibverbs") != std::string_view::npos) {
    return make(WarnKind::NetPlugin, Severity::Warning, "libibverbs",
                "libibverbs is not installed (or not in the container): NCCL cannot use InfiniBand/RoCE and falls "
                "back to TCP sockets");
  }
  // §7.3 sockets: connect failures, refused, closed, timeouts, in all generations.
  static const RE2 kConnect(R"([Cc]onnect to (\S+) failed : (.*)$)");
  static const RE2 kRecv(R"(Call to (?:recv|send)(?: (?:from|to) (\S+))? failed : (.*)$)");
  static const RE2 kClosed(R"(Connection closed by remote peer(?: (\S+))?)");
  std::string addr, reason;
  if (RE2::PartialMatch(msg, kConnect, &addr, &reason)) {
    WarnClass c = make(WarnKind::Socket, Severity::Error, fmt::format("socket-connect/{}", reason),
                       fmt::format("a socket connection failed: {}{}", reason,
                                   reason.find("refused") != std::string::npos
                                       ? " (nothing listens there: the peer process died or never started)"
                                   : reason.find("No route") != std::string::npos ||
                                           reason.find("timed out") != std::string::npos
                                       ? " (the address is unreachable: wrong NCCL_SOCKET_IFNAME or a firewall)"
                                       : ""));
    c.peer = strip_port(addr);
    return c;
  }
  if (RE2::PartialMatch(msg, kRecv, &addr, &reason)) {
    WarnClass c = make(WarnKind::Socket, Severity::Error, fmt::format("socket-io/{}", reason),
                       fmt::format("a socket transfer failed: {} (usually the peer process died)", reason));
    c.peer = strip_port(addr);
    return c;
  }
  if (RE2::PartialMatch(msg, kClosed, &addr)) {
    WarnClass c = make(WarnKind::Socket, Severity::Error, "socket-closed",
                       "the peer closed its socket: that process exited or crashed first; look for its own error");
    c.peer = strip_port(addr);
    return c;
  }
  if (message.find("exceeded retries") != std::string_view::npos ||
      message.find("exceeded timeouts") != std::string_view::npos ||
      message.find("exceeded error retry") != std::string_view::npos) {
    return make(WarnKind::Socket, Severity::Error, "socket-retries",
                "socket connection retries ran out: the peer is unreachable or not listening");
  }
  if (message.find("no socket interface found") != std::string_view::npos ||
      message.find("no interface found") != std::string_view::npos ||
      message.find("No usable listening interface") != std::string_view::npos ||
      message.find("No IP interface found") != std::string_view::npos ||
      message.find("verify NCCL_OOB_NET_IFNAME") != std::string_view::npos) {
    return make(WarnKind::SocketConfig, Severity::Error, "no-interface",
                "no network interface matches: NCCL_SOCKET_IFNAME (or NCCL_OOB_NET_IFNAME) names none of this "
                "host's interfaces");
  }
  if (message.starts_with("Bootstrap") || message.find("NCCL_COMM_ID") != std::string_view::npos) {
    return make(WarnKind::Bootstrap, Severity::Error, "bootstrap",
                "bootstrap failed: ranks disagree about the job (two jobs on one NCCL_COMM_ID, a restarted rank) "
                "or NCCL_COMM_ID is malformed");
  }
  // §7.4: `Cuda failure '%s'` and the 2.19+ driver form `Cuda failure %d '%s'`.
  static const RE2 kCuda(R"(Cuda failure (?:(\d+) )?'([^']*)')");
  std::string cuda_code, cuda_text;
  if (RE2::PartialMatch(msg, kCuda, &cuda_code, &cuda_text)) {
    std::string hint = cuda_text == "out of memory"
                           ? ": the GPU ran out of memory (NCCL buffers need memory too; lower the batch or "
                             "NCCL_BUFFSIZE)"
                       : cuda_text.find("peer access") != std::string::npos
                           ? ": P2P is not possible between these GPUs (NCCL_P2P_DISABLE or NCCL_P2P_LEVEL)"
                           : "";
    return make(WarnKind::Cuda, Severity::Error, fmt::format("cuda/{}", cuda_text),
                fmt::format("a CUDA call failed: '{}'{}", cuda_text, hint));
  }
  if (message.find("Failed to initialize any NET plugin") != std::string_view::npos ||
      (message.starts_with("Error: network ") && message.find("not found") != std::string_view::npos)) {
    return make(WarnKind::NetPlugin, Severity::Error, "net-not-found",
                "NCCL_NET names a network no plugin provides: communicator init fails");
  }
  if (message.starts_with("NET/Plugin") || message.starts_with("NET/OFI") ||
      message.find("plugin") != std::string_view::npos || message.find("Plugin") != std::string_view::npos) {
    return make(WarnKind::NetPlugin, Severity::Warning, "net-plugin",
                "a network plugin failed to load or initialize: NCCL falls back to its internal IB or Socket "
                "transport");
  }
  if (message.starts_with("Mismatched NCCL version")) {
    return make(WarnKind::VersionMismatch, Severity::Error, "version-mismatch",
                "ranks load different NCCL libraries (see nccl-version-mismatch, ND3100)");
  }
  if (message.starts_with("Duplicate GPU") || message.starts_with("Multiple ranks") ||
      message.starts_with("Multiple Ranks")) {
    return make(WarnKind::DuplicateGpu, Severity::Error, "duplicate-gpu",
                "two ranks use one GPU: check CUDA_VISIBLE_DEVICES and the launcher's GPU binding");
  }
  if (message.starts_with("No transport found")) {
    return make(WarnKind::NoTransport, Severity::Error, "no-transport",
                "NCCL found no transport between two ranks (P2P, SHM and NET all unusable or disabled)");
  }
  if (message.find("Proxy") != std::string_view::npos || message.find("[Service thread]") != std::string_view::npos) {
    return make(WarnKind::Proxy, Severity::Error, "proxy",
                "a proxy thread failed: usually the consequence of a peer that exited or a network error");
  }
  return make(WarnKind::Other, Severity::Warning, "other", "");
}

}  // namespace nd
