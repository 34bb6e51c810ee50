#include "parsers/warn_classes.h"

#include <algorithm>
#include <initializer_list>

#include <fmt/format.h>
#include <re2/re2.h>

#include "parsers/guarded_pattern.h"
#include "src/util/errno_names.h"
#include "src/util/numbers.h"

namespace nd {
namespace {

struct StatusInfo {
  const char* name;
  const char* meaning;
};

// ibv_wc_status from <infiniband/verbs.h>, with what each usually means in a job.
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

WarnClass make(WarnKind kind, WarnSeverity sev, std::string group, std::string explanation) {
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

std::string decode_version_code(std::string_view code) {
  if (code.size() > 6) return std::string(code);
  unsigned long v = 0;
  for (char c : code) v = v * 10 + static_cast<unsigned long>(c - '0');
  if (code.size() >= 5) return fmt::format("{}.{}.{}", v / 10000, v / 100 % 100, v % 100);
  if (code.size() == 4) return fmt::format("{}.{}.{}", v / 1000, v / 100 % 10, v % 100);
  return std::string(code);
}


namespace {

using Piece = re2::StringPiece;

// Every generation of the IB completion WARN, 2.4 to 2.30, and the async events.
std::optional<WarnClass> classify_ib(Piece msg) {
  static const GuardedPattern kCompletion(
      "Got completion",
      R"(NET/IB(?:/GIN)? ?: Got completion (?:from peer (\S+) )?with (?:error |status=)(?:(\w+)\()?(\d+))");
  static const GuardedPattern kVendor("vendor", R"(vendor[ _]err[= ](\d+))");
  static const GuardedPattern kHca("hca ", R"(hca (\S+))");
  std::string peer, status_name, status, vendor, hca;
  if (kCompletion.partial_match(msg, &peer, &status_name, &status)) {
    int s = static_cast<int>(std::min<uint32_t>(parse_u32(status).value_or(9999), 9999));
    WarnClass c = make(WarnKind::IbCompletion, WarnSeverity::Error, fmt::format("ib-completion/{}", s), "");
    c.status = s;
    c.peer = strip_port(peer);
    c.consequence = s == 5;
    std::string detail = fmt::format("status {} {}: {}", s, ibv_wc_status_name(s), ibv_wc_status_meaning(s));
    if (kVendor.partial_match(msg, &vendor)) {
      uint64_t v = parse_u64(vendor).value_or(0);
      detail += fmt::format("; vendor_err {} (0x{:x}{})", v, v, v == 129 ? ": retry counter exceeded" : "");
    }
    if (kHca.partial_match(msg, &hca)) detail += fmt::format("; local HCA {}", hca);
    c.explanation = std::move(detail);
    return c;
  }
  static const GuardedPattern kAsync("async", R"(NET/IB ?: (?:\S+ )?(?:Got async|async fatal|Got async error))");
  // NCCL warns on every async event but COMM_EST; these name the port coming
  // up or the subnet manager's bookkeeping (ibv_event_type_str), not a fault.
  static const GuardedPattern kBenignAsync(
      "Got async event",
      R"(Got async event ?: (?:port active|LID change|P_Key change|SM change|client reregistration|GID table change)\s*$)");
  if (kBenignAsync.partial_match(msg)) {
    return make(WarnKind::IbAsync, WarnSeverity::Info, "ib-async-benign",
                "the NIC reported a port or subnet event (a port coming up, a LID, GID or SM change): no fault by "
                "itself; it matters only after a 'port error' or with IB completion errors");
  }
  if (kAsync.partial_match(msg)) {
    return make(WarnKind::IbAsync, WarnSeverity::Error, "ib-async",
                "the NIC reported an asynchronous error (port down, QP or CQ fatal): check the link and the port "
                "counters");
  }
  return std::nullopt;
}

// `Call to ibv_X failed with error %s[ errno %d]` (2.19+ errno) and the
// 2.24+ `with %d %s, on dev ...` form of ibv_modify_qp.
std::optional<WarnClass> classify_verbs(Piece msg) {
  static const GuardedPattern kVerbs("Call to ibv_",
      R"(Call to (ibv_\w+) failed(?: with (?:error )?(?:(\d+) )?([^,]*?))?(?: errno (\d+))?(?:,|$))");
  std::string call, code, text, err;
  if (!kVerbs.partial_match(msg, &call, &code, &text, &err)) return std::nullopt;
  int e = static_cast<int>(std::min<uint32_t>(parse_u32(!err.empty() ? err : code).value_or(0), 99999));
  std::string why = e ? errno_meaning(e, call) : std::string();
  if (why.empty() && call == "ibv_reg_mr") {
    why = "memory registration failed: usually the locked-memory limit (ulimit -l) or missing GPUDirect RDMA "
          "support (nvidia-peermem / DMA-BUF)";
  }
  std::string group = fmt::format("verbs/{}/{}", call, e);
  std::string expl = fmt::format("{} failed{}{}", call, e ? fmt::format(" with {} ({})", e, errno_name(e)) : "",
                                 why.empty() ? std::string() : ": " + why);
  return make(WarnKind::VerbsCall, WarnSeverity::Error, group, expl);
}

// Sockets in all generations: connect failures, refused, closed, I/O errors.
std::optional<WarnClass> classify_socket_io(Piece msg) {
  static const GuardedPattern kConnect("onnect to ", R"([Cc]onnect to (\S+) failed : (.*)$)");
  static const GuardedPattern kRecv("Call to ", R"(Call to (?:recv|send)(?: (?:from|to) (\S+))? failed : (.*)$)");
  static const GuardedPattern kClosed("Connection closed by remote peer",
      R"(Connection closed by remote peer(?: (\S+))?)");
  std::string addr, reason;
  if (kConnect.partial_match(msg, &addr, &reason)) {
    WarnClass c = make(WarnKind::Socket, WarnSeverity::Error, fmt::format("socket-connect/{}", reason),
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
  if (kRecv.partial_match(msg, &addr, &reason)) {
    WarnClass c = make(WarnKind::Socket, WarnSeverity::Error, fmt::format("socket-io/{}", reason),
                       fmt::format("a socket transfer failed: {} (usually the peer process died)", reason));
    c.peer = strip_port(addr);
    return c;
  }
  if (kClosed.partial_match(msg, &addr)) {
    WarnClass c = make(WarnKind::Socket, WarnSeverity::Error, "socket-closed",
                       "the peer closed its socket: that process exited or crashed first; look for its own error");
    c.peer = strip_port(addr);
    return c;
  }
  return std::nullopt;
}

bool holds_any(std::string_view message, std::initializer_list<std::string_view> needles) {
  for (auto n : needles) {
    if (message.find(n) != std::string_view::npos) return true;
  }
  return false;
}

// A class that a few fixed words tell.
struct TextRule {
  bool (*matches)(std::string_view message);
  WarnKind kind;
  WarnSeverity severity;
  const char* group;
  const char* explanation;
};

template <size_t N>
std::optional<WarnClass> first_match(const TextRule (&rules)[N], std::string_view message) {
  for (const auto& r : rules) {
    if (r.matches(message)) return make(r.kind, r.severity, r.group, r.explanation);
  }
  return std::nullopt;
}

constexpr TextRule kNoVerbs[] = {
    // ibvwrap.cc says "lib wrapper not initialized." when a verbs call finds
    // no libibverbs loaded (gdrwrap.cc's own says "GDRCOPY lib wrapper …").
    {[](std::string_view m) { return holds_any(m, {"Failed to open libibverbs"}) || m.starts_with("lib wrapper not initialized"); },
     WarnKind::NetPlugin, WarnSeverity::Warning, "libibverbs",
     "libibverbs is not installed (or not in the container): NCCL cannot use InfiniBand/RoCE and falls back to TCP "
     "sockets"},
};

// Sockets that never connected: retries spent, no interface, bootstrap.
constexpr TextRule kSocketSetup[] = {
    {[](std::string_view m) { return holds_any(m, {"exceeded retries", "exceeded timeouts", "exceeded error retry"}); },
     WarnKind::Socket, WarnSeverity::Error, "socket-retries",
     "socket connection retries ran out: the peer is unreachable or not listening"},
    {[](std::string_view m) {
       return holds_any(m, {"no socket interface found", "no interface found", "No usable listening interface",
                            "No IP interface found", "verify NCCL_OOB_NET_IFNAME"});
     },
     WarnKind::SocketConfig, WarnSeverity::Error, "no-interface",
     "no network interface matches: NCCL_SOCKET_IFNAME (or NCCL_OOB_NET_IFNAME) names none of this host's "
     "interfaces"},
    {[](std::string_view m) { return m.starts_with("Bootstrap") || holds_any(m, {"NCCL_COMM_ID"}); },
     WarnKind::Bootstrap, WarnSeverity::Error, "bootstrap",
     "bootstrap failed: ranks disagree about the job (two jobs on one NCCL_COMM_ID, a restarted rank) or "
     "NCCL_COMM_ID is malformed"},
};

// Network plugins, and NCCL's own verdicts on the job's setup.
constexpr TextRule kSetup[] = {
    // aws-ofi-nccl's errors on the network it runs (a completion, the
    // address vector, a post): the operation or the connection failed.
    {[](std::string_view m) {
       return m.starts_with("NET/OFI") &&
              holds_any(m, {"completed with error", "Unable to retrieve completion", "Couldn't open AV",
                            "Unable to post", "Unable to send", "Unable to connect", "Unable to accept",
                            "Unable to free request", "Couldn't insert"});
     },
     WarnKind::VerbsCall, WarnSeverity::Error, "ofi-error",
     "the aws-ofi-nccl plugin (libfabric, EFA) reported an error on the network the job runs on: operations or "
     "connections failed; check the EFA provider, the security group (all traffic between the instances) and the peer"},
    {[](std::string_view m) {
       return holds_any(m, {"Failed to initialize any NET plugin"}) ||
              (m.starts_with("Error: network ") && holds_any(m, {"not found"}));
     },
     WarnKind::NetPlugin, WarnSeverity::Error, "net-not-found",
     "NCCL_NET names a network no plugin provides: communicator init fails"},
    {[](std::string_view m) {
       return m.starts_with("NET/Plugin") || m.starts_with("NET/OFI") || holds_any(m, {"plugin", "Plugin"});
     },
     WarnKind::NetPlugin, WarnSeverity::Warning, "net-plugin",
     "a network plugin failed to load or initialize: NCCL falls back to its internal IB or Socket transport"},
    {[](std::string_view m) { return m.starts_with("Mismatched NCCL version"); }, WarnKind::VersionMismatch,
     WarnSeverity::Error, "version-mismatch", "ranks load different NCCL libraries (see nccl-version-mismatch, ND3100)"},
    // `Duplicate GPU detected : rank %d and rank %d both on CUDA device %x`
    // (2.5-2.29), `Multiple ranks detected using the same GPU` (2.30.3),
    // `Multiple Ranks are using the same GPU/Partition` (2.30.7).
    {[](std::string_view m) {
       return m.starts_with("Duplicate GPU detected") || m.starts_with("Multiple ranks detected using the same GPU") ||
              m.starts_with("Multiple Ranks are using the same GPU");
     },
     WarnKind::DuplicateGpu, WarnSeverity::Error, "duplicate-gpu",
     "two ranks use one GPU: check CUDA_VISIBLE_DEVICES and the launcher's GPU binding"},
    {[](std::string_view m) { return m.starts_with("No transport found"); }, WarnKind::NoTransport,
     WarnSeverity::Error, "no-transport",
     "NCCL found no transport between two ranks (P2P, SHM and NET all unusable or disabled)"},
    {[](std::string_view m) { return holds_any(m, {"Proxy", "[Service thread]"}); }, WarnKind::Proxy,
     WarnSeverity::Error, "proxy",
     "a proxy thread failed: usually the consequence of a peer that exited or a network error"},
};

// `Cuda failure '%s'` and the 2.19+ driver form `Cuda failure %d '%s'`.
std::optional<WarnClass> classify_cuda(Piece msg) {
  static const GuardedPattern kCuda("Cuda failure ", R"(Cuda failure (?:(\d+) )?'([^']*)')");
  std::string cuda_code, cuda_text;
  if (!kCuda.partial_match(msg, &cuda_code, &cuda_text)) return std::nullopt;
  std::string hint = cuda_text == "out of memory"
                         ? ": the GPU ran out of memory (NCCL buffers need memory too; lower the batch or "
                           "NCCL_BUFFSIZE)"
                     : cuda_text.find("peer access") != std::string::npos
                         ? ": P2P is not possible between these GPUs (NCCL_P2P_DISABLE or NCCL_P2P_LEVEL)"
                         : "";
  return make(WarnKind::Cuda, WarnSeverity::Error, fmt::format("cuda/{}", cuda_text),
              fmt::format("a CUDA call failed: '{}'{}", cuda_text, hint));
}

std::optional<VersionMismatch> parse_version_mismatch(std::string_view message) {
  if (message.find("Mismatched NCCL version detected") == std::string_view::npos) return std::nullopt;
  static const RE2 kMismatch(R"(Mismatched NCCL version detected : rank (\d+) version (\d+) rank (\d+) version (\d+))");
  std::string r1, v1, r2, v2;
  if (!RE2::PartialMatch(Piece(message.data(), message.size()), kMismatch, &r1, &v1, &r2, &v2)) return std::nullopt;
  auto a = parse_u64(r1);
  auto b = parse_u64(r2);
  if (!a || !b) return std::nullopt;
  return VersionMismatch{*a, decode_version_code(v1), *b, decode_version_code(v2)};
}

WarnClass classify_kind(std::string_view message) {
  Piece msg(message.data(), message.size());
  // The first class that matches wins: a message may name several things
  // (`Bootstrap : Connect to ... failed` is a socket error).
  if (auto c = classify_ib(msg)) return std::move(*c);
  if (auto c = classify_verbs(msg)) return std::move(*c);
  if (auto c = first_match(kNoVerbs, message)) return std::move(*c);
  if (auto c = classify_socket_io(msg)) return std::move(*c);
  if (auto c = first_match(kSocketSetup, message)) return std::move(*c);
  if (auto c = classify_cuda(msg)) return std::move(*c);
  if (auto c = first_match(kSetup, message)) return std::move(*c);
  return make(WarnKind::Other, WarnSeverity::Warning, "other", "");
}

}  // namespace

WarnClass classify_warn(std::string_view message) {
  WarnClass c = classify_kind(message);
  c.mismatch = parse_version_mismatch(message);
  // CollNet setup fails over to the point-to-point network; 2.11's remote
  // allocation service thread reports and stops, its caller not told.
  c.collnet_fallback = message.starts_with("Cannot initialize CollNet");
  c.carries_on = c.collnet_fallback || message.starts_with("[Rem Allocator]");
  return c;
}

}  // namespace nd
