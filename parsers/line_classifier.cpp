#include "parsers/line_classifier.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <memory>
#include <mutex>

#include "parsers/fast_shapes.h"
#include "parsers/nccl_patterns.h"
#include "parsers/net_devices.h"
#include "parsers/net_notes.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {

const RE2& pattern(PatternKind kind) {
  // Each row is compiled when first needed, not the table at once: a short
  // log uses a few of them, and compiling costs more than reading it.
  static std::array<std::once_flag, kPatternCount> once;
  static std::array<std::unique_ptr<RE2>, kPatternCount> table;
  auto i = static_cast<size_t>(kind);
  std::call_once(once[i], [i] {
    RE2::Options opts;
    opts.set_log_errors(false);
    // Logs are bytes, not UTF-8: a stray invalid byte must not stop `.` matching.
    opts.set_encoding(RE2::Options::EncodingLatin1);
    table[i] = std::make_unique<RE2>(kPatterns[i].regex, opts);
  });
  return *table[i];
}

namespace {

using re2::StringPiece;

std::string_view sv(const StringPiece& p) { return std::string_view(p.data(), p.size()); }
std::string_view sv(std::string_view p) { return p; }

// Known NCCL INFO messages that carry nothing the checks use, from every
// release's INFO() calls (allocation, proxy, tuner, plugin and topology
// traces included: NCCL_DEBUG_SUBSYS=ALL prints them). Matched as prefixes so
// that every version's variant is covered.
constexpr std::string_view kIgnoredPrefixes[] = {
    "=== System", "AllGather:", "AllReduce:", "Allocated ", "Assigned ", "Assuming NVLink",
    "Binding multicast", "Bootstrap", "Broadcast:", "Buffer ", "CC ", "CPUs with mixed", "CTAPolicy",
    "CUDA Dev ", "CUDA Graph", "CUMEM", "Call to ", "Check P2P Type", "Cleanup buffer", "Closing tuner",
    "Comm config", "CommRevoke", "Communicator has", "Compute Capability", "Connected ", "Connection to proxy",
    "Could not ", "Created ", "Cross-clique", "Cuda ", "DMA-BUF", "DEBUG file", "Detected ", "Did not find child",
    "Duplicating rings", "Enabled NCCL", "External ", "Found child net", "Found network interface",
    "GDRCOPY", "GIN", "GPU Direct RDMA", "GPU/", "Host enqueue", "IPC symmetric", "Ib Alloc", "Init CE",
    "Init timings", "Initialized ", "Inserted window", "Intrusive map", "KV Convert", "LSA extended",
    "Last reference", "Launch mode", "Limiting to", "Loaded ", "Loading ", "Local CollNet", "Local Net",
    "MMAP ", "MNNVL", "Marking physical", "Max P2P Peers", "Mem Alloc", "Mem Realloc", "MemManager",
    "NCCL did not shutdown", "NCCL git version", "NCCL_", "NET/", "NET_IB", "NVLS", "NVLink target", "Net : ",
    "New proxy", "No ", "Number of segments", "Opened tuner", "P2P ", "P2P plugin", "PARAM", "PROFILER/", "PXN ",
    "Parsed environment", "Pattern ", "Peer ", "Plugin ", "Profiler ", "Proxy ", "ProxyCall", "Queing", "Queuing",
    "RAS ", "RMA/", "Rank ", "Received and initiated", "Recv:", "Reduce:", "ReduceScatter:", "Register ",
    "Retrieving state", "SHM legacy", "Search ", "Send:", "Setting affinity", "Skipping ", "Socket progress",
    "Stack size", "Successfully loaded", "SymCheck", "TOPO/", "TUNER/", "Threads per block",
    "Topology detection", "Tree ", "Tuner", "Tuning P2P", "UDS", "Unable to ", "Unknown CTA", "Unlinking shared",
    "Unloading plugin", "User asked for", "Using ", "WSAStartup", "Warning: ENV", "Widening links", "XML ",
    "[Proxy", "[Service", "bootstrapSplit", "collnetEnable", "cuMem host allocations", "cudaDriverVersion",
    "devCommCreate", "dlsym failed", "dlvsym failed", "ginForceEnable", "latencyinter", "maxCTAs", "minCTAs",
    "ncclComm", "ncclMaxSharedMem", "ncclNvml", "ncclOs", "ncclPollProxyResponse", "ncclRma", "ncclTopo",
    "nranks ", "nvlsCTAs", "nvml", "proxy", "recvConnect", "recvOpId", "register comm", "resp.opId",
    "scheduleRmaTasks", "sendConnect", "socketProgressOpt", "splitShare", "stream is being captured",
    "threadThresholds", "timings: ", "rank ", "comm ", "Collnet", "CollNet", "Coll ", "HINT:",
    "Symmetric", "Graph ", "Min Comp", "ENV/", "Failed to ", "DMA", "Attempting",
    "CPU/", "PCI/", "NIC/", "Paths from", "Invalid ", "HCA ", "Memory ", "Disabling ", "Enabling ",
    "Ignoring ", "Retrying", "Dumping", "Comm ", "Revoke", "Abort", "/sys/devices/",
};

// The prefixes by their first byte: a line compares against a handful.
const std::array<std::vector<std::string_view>, 256>& ignored_prefixes_by_first_byte() {
  static const auto index = [] {
    std::array<std::vector<std::string_view>, 256> by_byte;
    for (auto p : kIgnoredPrefixes) by_byte[static_cast<unsigned char>(p.front())].push_back(p);
    return by_byte;
  }();
  return index;
}

// Whether `s` holds `needle`, hopping with memchr on the needle's byte at
// `rare`: string_view::find compares at every occurrence of the needle's
// first byte, a space, and a connection line has a dozen before its " via ".
bool holds(std::string_view s, std::string_view needle, size_t rare) {
  for (size_t pos = rare; pos < s.size();) {
    const void* hit = std::memchr(s.data() + pos, needle[rare], s.size() - pos);
    if (!hit) return false;
    size_t at = static_cast<size_t>(static_cast<const char*>(hit) - s.data());
    if (at - rare + needle.size() > s.size()) return false;
    if (s.compare(at - rare, needle.size(), needle) == 0) return true;
    pos = at + 1;
  }
  return false;
}

bool ignored_message(std::string_view msg) {
  if (msg.empty()) return false;
  for (auto p : ignored_prefixes_by_first_byte()[static_cast<unsigned char>(msg.front())]) {
    if (msg.starts_with(p)) return true;
  }
  // `1 coll channels, ...`, tracebacks `init.cc:1234 -> 3`, topology blocks.
  if (!msg.empty() && is_digit(msg.front())) return true;
  if (msg.find(" -> ") != std::string_view::npos &&
      (msg.find(".cc:") != std::string_view::npos || msg.find(".cu:") != std::string_view::npos)) {
    return true;
  }
  if (msg.starts_with(" ") || msg.starts_with("+ ") || msg.starts_with("=")) return true;
  // 2.5's `Intel/Skylake (or later) CPU (PCI 12, InterCpu 9)`; per-operation
  // tuning `AllReduce [Symmetric]: 1024 Bytes -> Kernel ...` (2.27+).
  if (msg.find(" CPU (PCI ") != std::string_view::npos || msg.find(" Bytes -> ") != std::string_view::npos ||
      msg.find(" via C2C link") != std::string_view::npos) {
    return true;
  }
  // Allocation traces behind their call site: `alloc.h:58 Cuda Alloc Size 4194304 pointer 0x...`.
  if (size_t colon = msg.find(':'); colon != std::string_view::npos && colon > 0 && colon < 64) {
    size_t end = colon + 1;
    while (end < msg.size() && is_digit(msg[end])) ++end;
    std::string_view rest = msg.substr(std::min(end + 1, msg.size()));
    if (end > colon + 1 && end < msg.size() && msg[end] == ' ' && msg.find(' ') == end) {
      for (std::string_view alloc : {"Cuda ", "Mem ", "Ib Alloc", "malloc ", "memory stack"}) {
        if (rest.starts_with(alloc)) return true;
      }
    }
  }
  return false;
}

// A message that is none of the shapes above may still tell the model
// something by a word or two.
Event ignored_or_noted(std::string_view msg) {
  if (msg.starts_with("Bootstrap")) {
    BootstrapEvent e{socket_addresses(msg), {}, {}, {}};
    if (!e.addresses.empty()) e.first_interface = socket_interface(msg, e.addresses.front());
    auto [interface, address] = first_listed_endpoint(msg);
    e.interface = interface;
    e.address = address;
    return e;
  }
  if (size_t pos = msg.find(" nvls channels"); pos != std::string_view::npos) {
    size_t start = msg.rfind(' ', pos - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    uint32_t n = 0;
    for (size_t i = start; i < pos && is_digit(msg[i]); ++i) n = std::min<uint32_t>(n * 10 + (msg[i] - '0'), 1u << 20);
    return NvlsChannelsEvent{n};
  }
  if (msg.starts_with("Connected NVLS")) return NvlsConnectedEvent{};
  return IgnoredEvent{};
}

Event parse_connection(std::string_view msg) {
  // Hand-matched: these lines are the bulk of a large job's setup (the RE2
  // row stays the reference, see fast_shapes_test.cpp).
  ConnectionCaptures m;
  if (!match_connection(msg, m)) return UnknownEvent{};
  const auto& [keyword, channel, conn, sender, sbr, receiver, rbr, dir, transport] = m;
  ConnectionEvent ev;
  // The matcher took digits only for these.
  auto ch = parse_digits_u32(sv(channel));
  auto s = parse_digits_u32(sv(sender));
  auto r = parse_digits_u32(sv(receiver));
  if (!ch || !s || !r || *ch >= kMaxChannels || *s >= kMaxRanks || *r >= kMaxRanks) {
    return MalformedEvent{"rank or channel out of range"};
  }
  ev.channel = *ch;
  ev.sender = *s;
  ev.receiver = *r;
  if (!conn.empty()) {
    auto c = parse_digits_u32(sv(conn));
    if (!c || *c > 64) return MalformedEvent{"connection index out of range"};
    ev.conn_index = static_cast<int>(*c);
  }
  auto bracket = [&](std::string_view p, std::optional<uint64_t>& out) {
    if (p.empty()) return true;
    bool hex = false;
    for (char c : sv(p)) hex |= !is_digit(c);
    ev.bracket_hex |= hex;
    out = hex ? parse_hex64(sv(p)) : parse_digits_u64(sv(p));
    return out.has_value();
  };
  if (!bracket(sbr, ev.sender_bracket) || !bracket(rbr, ev.receiver_bracket)) {
    return MalformedEvent{"device bracket out of range"};
  }
  ev.direction = dir.empty() ? Direction::None : (dir == "send" ? Direction::Send : Direction::Receive);
  ev.transport = sv(transport);
  ev.legacy_ring_keyword = keyword == "Ring";
  return ev;
}

// NCCL 2.23+ builds the listing in a 128-byte buffer (`dumpLine`): it stops
// once 127 bytes are used and, when a rank did not fit, ends it with `...`.
constexpr size_t kCompactListingLimit = 127;
// Up to 2.22 the listing shows at most 20 ranks in 4-byte ` %3d` slots.
constexpr size_t kSlotListingCap = 20;

// True when the tokens sit in the fixed 4-byte slots of NCCL up to 2.22
// (`Channel 00/02 : ` then ` %3d` each: token i ends 4i+5 bytes after the
// colon), not in the 2.23+ slots of digits(nranks-1)+1 bytes.
bool in_four_byte_slots(const std::vector<size_t>& token_ends) {
  if (token_ends.size() < 2) return false;
  for (size_t i = 0; i + 1 < token_ends.size(); ++i) {
    if (token_ends[i] != 4 * i + 5) return false;
  }
  // The last slot may hold a 4-digit rank nothing wrote over.
  size_t last = token_ends.size() - 1;
  return token_ends[last] == 4 * last + 5 || token_ends[last] == 4 * last + 6;
}

Event parse_ring_listing(std::string_view msg) {
  RingListingCaptures g;
  if (!match_ring_listing(msg, g)) return UnknownEvent{};
  RingListingEvent ev;
  auto ch = parse_u32(g.channel);
  if (!ch || *ch >= kMaxChannels) return MalformedEvent{"channel out of range"};
  ev.channel = *ch;
  if (!g.count.empty()) {
    auto c = parse_u32(g.count);
    if (!c || *c > kMaxChannels) return MalformedEvent{"channel count out of range"};
    ev.channel_count = *c;
  }
  std::string_view list = g.ranks;
  std::vector<size_t> token_ends;  // offsets after the colon
  size_t pos = 0;
  while (pos < list.size()) {
    while (pos < list.size() && list[pos] == ' ') ++pos;
    size_t end = pos;
    while (end < list.size() && list[end] != ' ') ++end;
    if (end > pos) {
      auto r = parse_u32(list.substr(pos, end - pos));
      if (!r || *r >= kMaxRanks) return MalformedEvent{"rank out of range"};
      ev.ranks.push_back(*r);
      token_ends.push_back(end);
    }
    pos = end;
  }
  bool cut_by_dots = !g.dots.empty();
  // `... 1021 10...`: the dots overwrote the rest of the last number.
  if (cut_by_dots && g.dots[0] == '.' && !ev.ranks.empty()) ev.ranks.pop_back();
  size_t used = static_cast<size_t>((list.data() + list.size()) - msg.data()) + g.dots.size();
  ev.four_byte_slots = in_four_byte_slots(token_ends);
  ev.truncated = cut_by_dots || used >= kCompactListingLimit ||
                 (ev.four_byte_slots && ev.ranks.size() >= kSlotListingCap);
  return ev;
}

Event parse_graph_ring(std::string_view msg) {
  GraphRingCaptures g;
  if (!match_graph_ring(msg, g)) return UnknownEvent{};
  auto ch = parse_u32(g.channel);
  auto p = parse_i64(g.prev);
  auto m = parse_i64(g.me);
  auto n = parse_i64(g.next);
  if (!ch || !p || !m || !n || *ch >= kMaxChannels || *m < 0 || *m >= kMaxRanks || *p >= kMaxRanks ||
      *n >= kMaxRanks || *p < -1 || *n < -1) {
    return MalformedEvent{"rank or channel out of range"};
  }
  return GraphRingEvent{*ch, *p, *m, *n};
}

Event parse_init(std::string_view msg) {
  InitCaptures g;
  if (!match_init(msg, g)) return UnknownEvent{};
  InitEvent ev;
  auto r = parse_u32(g.rank);
  auto n = parse_u32(g.nranks);
  if (!r || !n || *n == 0 || *n > kMaxRanks || *r >= *n) return MalformedEvent{"rank or nranks out of range"};
  ev.rank = *r;
  ev.nranks = *n;
  ev.api = g.api;
  ev.comm_ptr = g.comm;
  if (auto c = parse_i64(g.cuda_dev)) ev.cuda_dev = static_cast<int>(std::clamp<int64_t>(*c, -1, 1 << 20));
  if (!g.nvml_dev.empty()) {
    if (auto v = parse_i64(g.nvml_dev)) ev.nvml_dev = static_cast<int>(std::clamp<int64_t>(*v, -1, 1 << 20));
  }
  if (!g.bus_id.empty()) ev.bus_id = parse_hex64(g.bus_id);
  if (!g.comm_id.empty()) ev.comm_id = parse_hex64(g.comm_id);
  ev.phase = g.phase == "START" ? InitPhase::Start : InitPhase::Complete;
  return ev;
}

Event parse_comm_shape(std::string_view msg) {
  CommShapeCaptures g;
  if (!match_comm_shape(msg, g)) return UnknownEvent{};
  auto r = parse_u32(g.rank);
  auto n = parse_u32(g.nranks);
  auto nn = parse_u32(g.nnodes);
  auto lr = parse_u32(g.local_ranks);
  if (!r || !n || !nn || !lr || *n > kMaxRanks || *nn > *n || *r >= *n) {
    return MalformedEvent{"rank counts out of range"};
  }
  return CommShapeEvent{g.comm, *r, *n, *nn, *lr};
}

Event parse_affinity(std::string_view msg) {
  StringPiece gpu, set, gpu_set, cpu_set;
  AffinityEvent ev;
  if (msg.front() == 'S') {
    if (!RE2::FullMatch(StringPiece(msg.data(), msg.size()), pattern(PatternKind::SettingAffinity), &gpu, &set)) {
      return UnknownEvent{};
    }
    // <=2.26 print a hex mask (`03f03f`, `ffff,ffffffff`), 2.27 a range list
    // (`0-23,48-71`); a lone number like `3f` or `12` reads as a mask only
    // when it could not be a list.
    std::string_view text = sv(set);
    bool letters = text.find_first_of("abcdefABCDEF") != std::string_view::npos;
    bool word_groups = text.find(',') != std::string_view::npos;
    for (size_t pos = text.find(','); pos != std::string_view::npos; pos = text.find(',', pos + 1)) {
      size_t end = text.find(',', pos + 1);
      word_groups &= (end == std::string_view::npos ? text.size() : end) - pos - 1 == 8;
    }
    ev.hex_mask = text.find('-') == std::string_view::npos &&
                  (letters || word_groups || text.find(',') == std::string_view::npos);
  } else if (!RE2::FullMatch(StringPiece(msg.data(), msg.size()), pattern(PatternKind::TopoCpuAffinity), &gpu,
                             &set, &gpu_set, &cpu_set)) {
    return UnknownEvent{};
  }
  auto g = parse_u32(sv(gpu));
  if (!g || *g > 1u << 20) return MalformedEvent{"GPU index out of range"};
  ev.gpu = static_cast<int>(*g);
  if (set == "empty, ignoring") {
    ev.empty = true;
  } else {
    ev.affinity = sv(set);
  }
  ev.gpu_affinity = sv(gpu_set);
  ev.cpu_affinity = sv(cpu_set);
  return ev;
}


// Whether `file` (`transport/net.cc`, 2.4's `.cu` too) is one of `names`,
// given without the extension and with the folders that tell them apart.
bool is_nccl_file(std::string_view file, std::initializer_list<std::string_view> names) {
  if (!file.ends_with(".cc") && !file.ends_with(".cu")) return false;
  file.remove_suffix(3);
  for (auto name : names) {
    if (file.ends_with(name) && (file.size() == name.size() || file[file.size() - name.size() - 1] == '/')) return true;
  }
  return false;
}

// Files whose failures NCCL passes on to the caller of the API: init,
// connection setup, group launch and the proxy.
bool on_failing_path(std::string_view file, std::string_view thread) {
  if (!thread.empty()) return true;  // the async init thread and the proxy report to the caller
  return is_nccl_file(file, {"init", "group", "enqueue", "proxy", "transport", "bootstrap", "channel", "collectives",
                             "transport/net", "transport/p2p", "transport/shm", "transport/nvls"});
}

}  // namespace

std::optional<ReturnTraceEvent> parse_return_trace(std::string_view msg) {
  size_t arrow = msg.find(" -> ");
  if (arrow == std::string_view::npos || arrow == 0) return std::nullopt;
  std::string_view frame = msg.substr(0, arrow);
  std::string_view rest = msg.substr(arrow + 4);
  // 2.30.7: `file:line (func) -> N`
  if (frame.ends_with(')')) {
    size_t open = frame.rfind(" (");
    if (open == std::string_view::npos) return std::nullopt;
    frame = frame.substr(0, open);
  }
  size_t colon = frame.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || frame.find(' ') != std::string_view::npos) return std::nullopt;
  std::string_view file = frame.substr(0, colon);
  size_t dot = file.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == file.size()) return std::nullopt;
  auto line = parse_u32(frame.substr(colon + 1));
  size_t digits = 0;
  while (digits < rest.size() && is_digit(rest[digits])) ++digits;
  auto code = parse_u32(rest.substr(0, digits));
  if (!line || !code) return std::nullopt;
  rest.remove_prefix(digits);
  // ` (strerror)` (2.18+), then ` [Async thread]` and the like.
  if (rest.starts_with(" (")) {
    size_t close = rest.find(')');
    if (close == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(close + 1);
  }
  std::string_view thread;
  if (rest.starts_with(" [") && rest.ends_with(']')) {
    thread = rest.substr(2, rest.size() - 3);
    rest = {};
  }
  if (!trim(rest).empty()) return std::nullopt;
  return ReturnTraceEvent{file,
                          *line,
                          *code,
                          thread,
                          on_failing_path(file, thread),
                          file.ends_with(".cc") && is_nccl_file(file, {"init", "group", "enqueue"}),
                          is_nccl_file(file, {"group"})};
}

namespace {

Event parse_graph_pattern(std::string_view msg) {
  StringPiece pat, cross, nch, bw_a, bw_e, ta, te, same;
  if (!RE2::PartialMatch(StringPiece(msg.data(), msg.size()), pattern(PatternKind::GraphPattern), &pat, &cross,
                         &nch, &bw_a, &bw_e, &ta, &te, &same)) {
    return UnknownEvent{};
  }
  auto p = parse_u32(sv(pat));
  auto c = parse_u32(sv(cross));
  auto n = parse_u32(sv(nch));
  if (!p || !c || !n || *p > 64 || *c > 64 || *n > kMaxChannels) return MalformedEvent{"pattern numbers out of range"};
  GraphPatternEvent ev;
  ev.pattern = static_cast<int>(*p);
  ev.cross_nic = static_cast<int>(*c);
  ev.nchannels = *n;
  ev.bw_intra = std::strtod(std::string(sv(bw_a)).c_str(), nullptr);
  ev.bw_inter = std::strtod(std::string(sv(bw_e)).c_str(), nullptr);
  ev.type_intra = sv(ta);
  ev.type_inter = sv(te);
  return ev;
}

template <typename... Args>
bool full(std::string_view msg, PatternKind kind, Args*... args) {
  return RE2::FullMatch(StringPiece(msg.data(), msg.size()), pattern(kind), args...);
}

template <typename... Args>
bool partial(std::string_view msg, PatternKind kind, Args*... args) {
  return RE2::PartialMatch(StringPiece(msg.data(), msg.size()), pattern(kind), args...);
}

}  // namespace

namespace {

// `-?[0-9]{1,10}` from p: where it ends, or nullptr for another shape (more
// digits go to the general reader and its overflow rules). The caller checks
// the range.
const char* read_tree_number(const char* p, const char* end, int64_t& out) {
  bool negative = p < end && *p == '-';
  const char* first = p + (negative ? 1 : 0);
  const char* q = first;
  int64_t value = 0;
  for (; q < end && is_digit(*q) && q - first < 10; ++q) value = value * 10 + (*q - '0');
  if (q == first || (q < end && is_digit(*q))) return nullptr;
  out = negative ? -value : value;
  return q;
}

// `n/n/n...` from p: the first three numbers, how many there were, and where
// they end (nullptr: another shape).
const char* read_tree_side(const char* p, const char* end, int64_t (&first)[3], size_t& count) {
  count = 0;
  while (true) {
    int64_t v = 0;
    p = read_tree_number(p, end, v);
    if (!p) return nullptr;
    if (count < 3) first[count] = v;
    ++count;
    if (p == end || *p != '/') return p;
    ++p;
  }
}

const char* read_arrow(const char* p, const char* end) {
  return p && end - p >= 2 && p[0] == '-' && p[1] == '>' ? p + 2 : nullptr;
}

bool is_rank_or_none(int64_t v) { return v >= -1 && v < kMaxRanks; }

// The last item read_tree_item() read in full: a rank prints the same tree
// position on most of its channels, so most items of a line repeat it.
struct LastTreeItem {
  std::string_view text;  // after `[c] `, up to the space or the end
  TreeEntry entry;
};

// The item at rest[open] == '[' in the shape 2.4 and 2.8+ print, read
// forward: `[c] d/d/d->me->up` or `[c] up->me->d/d/d`, ending at a space or
// the end. Returns where it ends, or 0 for any other shape or an entry the
// general reader would refuse: that reader then decides the item (the tests
// hold the two to the same entries).
size_t read_tree_item(std::string_view rest, size_t open, TreeEntry& e, LastTreeItem& last) {
  const char* end = rest.data() + rest.size();
  const char* p = rest.data() + open + 1;
  int64_t ch = 0;
  if (p == end || *p == '-') return 0;
  p = read_tree_number(p, end, ch);
  if (!p || ch >= kMaxChannels || p == end || *p != ']') return 0;
  ++p;
  while (p < end && *p == ' ') ++p;
  const char* item = p;
  // The same text reads the same but for the channel.
  const size_t repeat = last.text.size();
  if (repeat > 0 && static_cast<size_t>(end - item) >= repeat && std::memcmp(item, last.text.data(), repeat) == 0 &&
      (item + repeat == end || item[repeat] == ' ')) {
    e = last.entry;
    e.channel = static_cast<uint16_t>(ch);
    return static_cast<size_t>(item + repeat - rest.data());
  }
  int64_t left[3] = {}, right[3] = {}, me = 0;
  size_t left_count = 0, right_count = 0;
  p = read_tree_side(p, end, left, left_count);
  p = read_arrow(p, end);
  if (p) p = read_tree_number(p, end, me);
  p = read_arrow(p, end);
  if (p) p = read_tree_side(p, end, right, right_count);
  if (!p || (p < end && *p != ' ')) return 0;
  if (me < 0 || me >= kMaxRanks) return 0;
  bool downs_left = left_count > 1;
  if (downs_left && right_count > 1) return 0;
  int64_t up = downs_left ? right[0] : left[0];
  const int64_t(&downs)[3] = downs_left ? left : right;
  size_t down_count = std::min<size_t>(downs_left ? left_count : right_count, 3);
  if (!is_rank_or_none(up)) return 0;
  for (size_t i = 0; i < down_count; ++i) {
    if (!is_rank_or_none(downs[i])) return 0;
  }
  e.channel = static_cast<uint16_t>(ch);
  e.me = static_cast<int32_t>(me);
  e.up = static_cast<int32_t>(up);
  for (size_t i = 0; i < down_count; ++i) e.down[i] = static_cast<int32_t>(downs[i]);
  last.text = std::string_view(item, static_cast<size_t>(p - item));
  last.entry = e;
  return static_cast<size_t>(p - rest.data());
}

// One item at rest[open] == '[' in any generation; npos when unreadable.
size_t read_tree_item_general(std::string_view rest, size_t open, TreeEntry& e) {
  size_t close = rest.find(']', open);
  if (close == std::string_view::npos) return std::string_view::npos;
  auto ch = parse_u32(rest.substr(open + 1, close - open - 1));
  if (!ch || *ch >= kMaxChannels) return std::string_view::npos;
  size_t start = close + 1;
  while (start < rest.size() && rest[start] == ' ') ++start;
  size_t end = rest.find(' ', start);
  if (end == std::string_view::npos) end = rest.size();
  std::string_view item = rest.substr(start, end - start);
  if (size_t bar = item.find('|'); bar != std::string_view::npos) item = item.substr(0, bar);
  size_t a1 = item.find("->");
  size_t a2 = a1 == std::string_view::npos ? a1 : item.find("->", a1 + 2);
  if (a2 == std::string_view::npos) return std::string_view::npos;
  std::string_view left = item.substr(0, a1);
  std::string_view mid = item.substr(a1 + 2, a2 - a1 - 2);
  std::string_view right = item.substr(a2 + 2);
  e.channel = static_cast<uint16_t>(*ch);
  auto me = parse_i64(mid);
  if (!me || *me < 0 || *me >= kMaxRanks) return std::string_view::npos;
  e.me = static_cast<int32_t>(*me);
  bool downs_left = left.find('/') != std::string_view::npos;
  std::string_view downs = downs_left ? left : right;
  auto up = parse_i64(downs_left ? right : left);
  if (!up || *up < -1 || *up >= kMaxRanks) return std::string_view::npos;
  e.up = static_cast<int32_t>(*up);
  for (int i = 0; i < 3; ++i) {
    size_t slash = downs.find('/');
    std::string_view d = downs.substr(0, slash);
    auto v = parse_i64(d);
    if (!v || *v < -1 || *v >= kMaxRanks) return std::string_view::npos;
    e.down[i] = static_cast<int32_t>(*v);
    if (slash == std::string_view::npos) break;
    downs = downs.substr(slash + 1);
  }
  return end;
}

// Items: ` [c] a->b->c` where exactly one of a, c holds the three `/`-separated
// children; 2.5-2.7 print `down->me->up|up->me->down`, the first half is enough.
bool read_trees(std::string_view rest, TreesEvent& out, bool forward) {
  // One allocation for the line's channels, not one per doubling: an entry
  // takes 16 bytes or more but in the smallest jobs, and counting the '['
  // first would cost an eighth of the reading.
  out.entries.reserve(rest.size() / 16 + 1);
  LastTreeItem last;
  size_t pos = 0;
  while (pos < rest.size()) {
    // Items are one space apart; find() only for anything else.
    size_t open = pos + 1 < rest.size() && rest[pos] == ' ' && rest[pos + 1] == '[' ? pos + 1 : rest.find('[', pos);
    if (open == std::string_view::npos) break;
    TreeEntry e;
    size_t end = forward ? read_tree_item(rest, open, e, last) : 0;
    if (end == 0) {
      e = TreeEntry{};
      end = read_tree_item_general(rest, open, e);
      if (end == std::string_view::npos) return false;
    }
    out.entries.push_back(e);
    pos = end;
  }
  return !out.entries.empty();
}

}  // namespace

bool parse_trees(std::string_view rest, TreesEvent& out) { return read_trees(rest, out, /*forward=*/true); }

bool parse_trees_general(std::string_view rest, TreesEvent& out) { return read_trees(rest, out, /*forward=*/false); }

namespace {

// classify_message() after its per-operation test.
Event classify_other_message(std::string_view msg) {
  if (msg.empty()) return IgnoredEvent{};
  switch (msg.front()) {
    case 'R':
      if (msg.starts_with("Ring ")) {
        if (holds(msg, " via ", 1)) return parse_connection(msg);
        if (msg.find(" -> ") != std::string_view::npos) return parse_graph_ring(msg);
        Event e = parse_ring_listing(msg);
        if (!std::holds_alternative<UnknownEvent>(e)) return e;
      }
      break;
    case 'C':
      if (msg.starts_with("Channel ")) {
        // Most of a large job's setup: matched first; an unmatched line
        // with " via " is no listing either.
        Event e = parse_connection(msg);
        if (!std::holds_alternative<UnknownEvent>(e) || holds(msg, " via ", 1)) return e;
        e = parse_ring_listing(msg);
        if (!std::holds_alternative<UnknownEvent>(e)) return e;
      } else if (msg.starts_with("Comm config netName")) {
        StringPiece a, b;
        if (full(msg, PatternKind::EnvNetName, &a, &b)) return EnvEvent{sv(a), sv(b)};
      } else if (msg.starts_with("Count not open ")) {
        if (auto n = parse_net_note(msg, false)) return *n;
      } else if (msg.starts_with("Coll")) {
        StringPiece ch, conn, rank, dir, transport;
        if (full(msg, PatternKind::CollNet, &ch, &conn, &rank, &dir, &transport)) {
          auto c = parse_u32(sv(ch));
          auto r = parse_u32(sv(rank));
          if (!c || !r || *c >= kMaxChannels || *r >= kMaxRanks) return MalformedEvent{"rank or channel out of range"};
          return CollNetEvent{*c, *r, dir == "send" ? Direction::Send : Direction::Receive, sv(transport)};
        }
      }
      break;
    case 'T':
      if (msg.starts_with("Trees")) {
        TreesEvent ev;
        if (parse_trees(msg.substr(5), ev)) return ev;
        return MalformedEvent{"unreadable tree entry"};
      }
      break;
    case 'N': {
      std::string_view version, cuda;
      if (match_version(msg, version, cuda)) return VersionEvent{version, cuda};
      StringPiece a, b;
      if (msg.starts_with("NCCL_")) {
        if (full(msg, PatternKind::EnvSetByEnvironment, &a, &b) || full(msg, PatternKind::EnvSetTo, &a, &b)) {
          std::string_view value = sv(b);
          if (value.ends_with('.')) value.remove_suffix(1);
          return EnvEvent{sv(a), value};
        }
      }
      if (msg.starts_with("NVLS Trees")) {
        // `NVLS Trees : d/d/d->me->up d/d/d->me->up`: channels 0 and 1, unnumbered.
        std::string numbered;
        size_t colon = msg.find(':');
        std::string_view items = colon == std::string_view::npos ? std::string_view{} : msg.substr(colon + 1);
        uint32_t ch = 0;
        for (size_t pos = 0; pos < items.size() && ch < 64;) {
          while (pos < items.size() && items[pos] == ' ') ++pos;
          size_t end = items.find(' ', pos);
          if (end == std::string_view::npos) end = items.size();
          if (end > pos) numbered += "[" + std::to_string(ch++) + "] " + std::string(items.substr(pos, end - pos)) + " ";
          pos = end;
        }
        TreesEvent ev;
        if (!parse_trees(numbered, ev)) return MalformedEvent{"unreadable NVLS tree entry"};
        for (auto& e : ev.entries) e.nvls = true;
        return ev;
      }
      if (!msg.starts_with("NET/")) break;
      if (auto n = parse_net_note(msg, false)) return *n;
      std::string_view name, list;
      if (match_net_using(msg, name, list)) {
        NetUsingEvent e{name, list, parse_net_devices(list), count_net_devices(list), socket_addresses(list), {}};
        if (!e.addresses.empty()) e.first_interface = socket_interface(list, e.addresses.front());
        return e;
      }
      break;
    }
    case 'U': {
      std::string_view name;
      if (match_using_network(msg, name)) return UsingNetworkEvent{name};
      break;
    }
    case 'c': {
      std::string_view driver;
      if (match_cuda_driver(msg, driver)) {
        auto v = parse_u32(driver);
        if (!v) return MalformedEvent{"driver version out of range"};
        return CudaDriverEvent{*v};
      }
      if (msg.starts_with("comm ")) {
        if (holds(msg, "- Init ", 2)) return parse_init(msg);
        if (holds(msg, " nNodes ", 1)) return parse_comm_shape(msg);
      }
      break;
    }
    case 'S':
      if (msg.starts_with("Setting affinity for GPU ")) return parse_affinity(msg);
      if (auto n = parse_net_note(msg, false)) return *n;
      break;
    case 'F':
    case 'I':
    case 'A':
      // `Failed to open libibverbs`, the 2.27+ plugin manager's `Initialized`,
      // `Assigned` and `Failed to initialize NET plugin %s`.
      if (auto n = parse_net_note(msg, false)) return *n;
      break;
    case 'n':
      if (msg.starts_with("ncclTopoGetCpuAffinity: ")) return parse_affinity(msg);
      break;
    case 'P':
      if (msg.starts_with("Pattern ")) {
        Event e = parse_graph_pattern(msg);
        if (!std::holds_alternative<UnknownEvent>(e)) return e;
      }
      break;
    default:
      break;
  }
  if (holds(msg, "- Init START", 2) || holds(msg, "- Init COMPLETE", 2)) {
    return parse_init(msg);
  }
  if (auto trace = parse_return_trace(msg)) return *trace;
  if (ignored_message(msg)) return ignored_or_noted(msg);
  return UnknownEvent{};
}

}  // namespace

Event classify(const NcclHeader& header, bool per_operation) {
  switch (header.level) {
    case Level::Warn:
      // WARNs rarely come in floods that matter, so each gets a look.
      return WarnEvent{header.location, header.payload, parse_net_note(header.payload, true)};
    case Level::Info:
    case Level::Abort:
    case Level::Version:
      return per_operation ? Event{IgnoredEvent{}} : classify_other_message(header.payload);
    case Level::Trace:
    case Level::Call:
      if (per_operation) return IgnoredEvent{};
      return ignored_or_noted(header.payload);
  }
  return UnknownEvent{};
}

Event classify_message(std::string_view msg) {
  // COLL/TUNING lines are most of a large log; decide them on a few bytes.
  if (is_per_operation(msg)) return IgnoredEvent{};
  return classify_other_message(msg);
}

Event classify(const NcclHeader& header) {
  // A WARN's message is read whatever it says.
  return classify(header, header.level != Level::Warn && is_per_operation(header.payload));
}

}  // namespace nd
