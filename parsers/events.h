#pragma once
// Typed records produced by the line classifier. Every string_view points into
// the current line buffer and is only valid until the next line is read.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace nd {

// Where a line came from: input file index and 1-based line number.
struct LineRef {
  uint32_t file = 0;
  uint32_t line = 0;
  friend bool operator==(const LineRef&, const LineRef&) = default;
  friend auto operator<=>(const LineRef&, const LineRef&) = default;
};

enum class Level : uint8_t { Info, Warn, Trace, Call, Abort, Version };

// How much of `host:pid:tid` a header holds. Pastes anonymise the host
// (`<cluster_name>`, `xxx`, `node-X`) or lose the whole prefix (` [0] NCCL
// INFO ...` in notebooks and quoted excerpts); such lines still count.
enum class HostForm : uint8_t {
  Named,        // a host name as NCCL printed it
  Placeholder,  // `host:pid:tid` with a stand-in for the host: pid and tid are real
  Absent,       // no `host:pid:tid` at all: host, pid and tid unknown
};

// The `host:pid:tid [dev] [loc] NCCL LEVEL` header of one NCCL line.
// Widest members first: one is kept for each line of a chunk in flight.
struct NcclHeader {
  std::string_view host;  // empty when Absent; the stand-in text when Placeholder
  std::string_view location;  // WARN/TRACE only
  std::string_view payload;
  uint64_t pid = 0;
  uint64_t tid = 0;
  size_t column = 0;  // 0-based offset of the host in the raw line
  int dev = -1;  // -1 when absent (CALL lines)
  HostForm host_form = HostForm::Named;
  Level level = Level::Info;
};

enum class Direction : uint8_t { None, Send, Receive };

// `Ring|Channel NN[/k] : a[x] -> b[y] [send] via TRANSPORT`
struct ConnectionEvent {
  uint32_t channel = 0;
  int conn_index = -1;  // -1 when not printed
  uint32_t sender = 0;
  uint32_t receiver = 0;
  std::optional<uint64_t> sender_bracket;   // raw bracket value as parsed
  std::optional<uint64_t> receiver_bracket;
  bool bracket_hex = false;  // brackets held hex digits (busId generation)
  Direction direction = Direction::None;
  std::string_view transport;  // text after "via "
  bool legacy_ring_keyword = false;  // 2.4-2.6 "Ring NN :" form
};

// CollNet `Coll|CollNet NN[/k] : r [send] via COLLNET/...`
struct CollNetEvent {
  uint32_t channel = 0;
  uint32_t rank = 0;
  Direction direction = Direction::None;
  std::string_view transport;
};

// Ring listing `Channel NN[/MM] :  0 1 2 3` (rank 0 only). Partial
// evidence: NCCL prints at most 20 ranks up to 2.22 and at most 127
// characters from 2.23, so most listings of large jobs are cut.
struct RingListingEvent {
  uint32_t channel = 0;
  std::optional<uint32_t> channel_count;
  std::vector<uint32_t> ranks;  // whole numbers only: a number cut by `...` is dropped
  // Possibly cut: ended in `...`, filled NCCL's 127 characters, or holds the
  // 20 ranks that NCCL up to 2.22 prints at most.
  bool truncated = false;
  // The ≤2.22 ` %3d` slots, where a rank of 4+ digits loses its last digits
  // to the next slot (see ListingRecord::readable).
  bool four_byte_slots = false;
};

// GRAPH `Ring NN : prev -> me -> next` (2.10+, every rank).
struct GraphRingEvent {
  uint32_t channel = 0;
  int64_t prev = -1;
  int64_t me = -1;
  int64_t next = -1;
};

// One tree position: `[c] d0/d1/d2->me->up` and its 2.4/2.5 variants.
// Ranks are below kMaxRanks (2^22), so 32 bits hold them and -1: a job
// keeps one of these per rank and channel.
struct TreeEntry {
  int32_t up = -1;
  int32_t me = -1;
  int32_t down[3] = {-1, -1, -1};
  uint16_t channel = 0;
  bool nvls = false;  // from `NVLS Trees` (2.18+), not `Trees`
};

struct TreesEvent {
  std::vector<TreeEntry> entries;
};

enum class InitPhase : uint8_t { Start, Complete };

// `[api ]comm %p rank %d nranks %d cudaDev %d [nvmlDev %d] [busId %x] [commId 0x%x] - Init START|COMPLETE`
struct InitEvent {
  InitPhase phase = InitPhase::Complete;
  std::string_view api;  // ncclCommInitRank, ncclCommSplit, ... or empty
  std::string_view comm_ptr;
  uint32_t rank = 0;
  uint32_t nranks = 0;
  int cuda_dev = -1;
  int nvml_dev = -1;
  std::optional<uint64_t> bus_id;
  std::optional<uint64_t> comm_id;
};

// `comm %p rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL %d` (2.20+)
struct CommShapeEvent {
  std::string_view comm_ptr;
  uint32_t rank = 0;
  uint32_t nranks = 0;
  uint32_t nnodes = 0;
  uint32_t local_ranks = 0;
};

// `NCCL version 2.18.3+cuda12.2`
struct VersionEvent {
  std::string_view version;  // "2.18.3"
  std::string_view cuda;     // "12.2", may be empty
};

struct UsingNetworkEvent {
  std::string_view name;
};

// One device of a `NET/<name> : Using` list.
struct NetDeviceEntry {
  int index = -1;               // the `[d]` that connection lines print as netDev
  std::string_view name;        // HCA (`mlx5_0`) or interface (`eth0`)
  int port = -1;                // IB port, -1 for sockets
  std::string_view link_layer;  // "IB", "RoCE", "UNSPECIFIED"; empty for sockets
  std::string_view address;     // socket address `10.1.0.10<0>`; empty for IB
};

// `NET/IB : Using [0]mlx5_0:1/IB ...` or `NET/Socket : Using [0]eth0:...`
struct NetUsingEvent {
  std::string_view net;   // "IB", "Socket"
  std::string_view list;  // everything after "Using"
  std::vector<NetDeviceEntry> devices;  // parsed from `list`, OOB excluded
  uint32_t device_count = 0;  // devices listed, a merged NIC once
  std::vector<std::string_view> addresses;  // the host's IPv4 addresses, OOB included
  std::string_view first_interface;         // the first address's ("ib0")
};

// Any `Bootstrap...` INFO line; `Bootstrap : Using ib0:10.1.0.10<0>` (2.4-2.23)
// and `Bootstrap: Using ib0:10.1.0.10<0>` (2.24+) name the host's address.
struct BootstrapEvent {
  std::vector<std::string_view> addresses;  // IPv4 only
  std::string_view first_interface;  // the first IPv4 address's ("ib0")
  // What NCCL bootstraps on: the first listed, IPv6 included.
  std::string_view interface;
  std::string_view address;  // "fe80::1%ib0", "10.1.0.10"
};

// `%d coll channels, [%d collnet channels, ]%d nvls channels, %d p2p
// channels, ...` (2.17+): 0 when NVLS is not used.
struct NvlsChannelsEvent {
  uint32_t channels = 0;
};

// `Connected NVLS tree` (2.18+) and any other `Connected NVLS...` line.
struct NvlsConnectedEvent {};

// One frame of NCCL's error traceback: every NCCLCHECK that sees a failed
// call prints INFO `%s:%d -> %d` (file:line -> ncclResult_t) on its way up;
// 2.18+ may add ` (%s)` (strerror), 2.30.7 ` (func)` before the arrow, and
// frames of other threads a ` [Async thread]`-like tag.
struct ReturnTraceEvent {
  std::string_view file;   // as NCCL's __FILE__ names it: `transport/net.cc`
  uint32_t line = 0;
  uint32_t code = 0;       // ncclResult_t: 1 cuda, 2 system, 3 internal, ...
  std::string_view thread; // `Async thread`, `Proxy Thread`; empty for the caller's own
  // The frame is on a path NCCL does not fall back from: communicator init
  // and connection setup, group launch, the proxy. Failures there fail the
  // call; CollNet setup is the one exception, which the model tells apart.
  bool on_failing_path = false;
  // The frame is in the files of NCCL's API calls (init, group, enqueue): the
  // error goes on to the caller.
  bool api_frame = false;
  // `group.cc`: the error left init for the group call that launched it.
  bool group_frame = false;
};

// What a line says about the networks NCCL could or could not set up, at
// whatever level NCCL printed it: the NET plugin lines, libibverbs, and the
// IB completion and verbs-call WARNs.
enum class NetNote : uint8_t {
  PluginNotFound,     // no external NET plugin: `NET/Plugin : No plugin found (%s)...` (2.4-2.21),
                      // `NET/Plugin: Could not find: %s...` (2.22+), `NET/Plugin: Using internal network plugin.`
  PluginLoadFailed,   // the library is there but would not load: `... Plugin load returned %d : %s`
                      // (2.4-2.21), `NET/Plugin: <dlerror>` (2.22+), `Failed to find ncclNetPlugin symbol (...)`
  PluginLoaded,       // `NET/Plugin: Loaded net plugin %s (vN)` (net name), 2.27+ `Successfully loaded
                      // external [network ]plugin %s` (library name); loaded is not yet working
  PluginInitialized,  // `Initialized NET plugin %s` (2.27+; internal IB and Socket too)
  PluginInitFailed,   // `Failed to initialize NET plugin %s` (2.28+)
  PluginAssigned,     // `Assigned NET plugin %s to comm` (2.27+): what the communicator uses
  VerbsMissing,       // `Failed to open libibverbs.so[.1]` (WARN <=2.10, INFO 2.11-2.29),
                      // `Count not open libibverbs.so.1` (sic, INFO 2.30.3+)
  IbNoDevice,         // `NET/IB : No device found.` (INFO, all versions)
  IbNoInterface,      // `NET/IB : No IP interface found.` (WARN, all versions)
  IbTraffic,          // a WARN from IB at work: completion errors, async events, a failed
                      // `Call to ibv_X` other than device discovery
  OfiProvider,        // aws-ofi-nccl `NET/OFI Selected [Pp]rovider is %s[, fabric is %s] (found %d nics)`
  PluginWarn,         // a WARN from a network plugin (`NET/OFI ...`, `NET/Plugin...`): the whole message
};

struct NetNoteEvent {
  NetNote note = NetNote::PluginNotFound;
  std::string_view name;  // plugin, network or library name, provider; empty when the line names none
  int version = -1;       // PluginLoaded `(vN)`
  int status = -1;        // IbTraffic: a completion's ibv_wc_status, or a verbs call's errno
  std::string_view call;  // IbTraffic: the verbs call (`ibv_modify_qp`), empty for completions
};

struct CudaDriverEvent {
  uint32_t version = 0;
};

// `NCCL_X set by environment to V[.]` and `NCCL_X set to V`
struct EnvEvent {
  std::string_view name;
  std::string_view value;
};

// `Setting affinity for GPU %d to %s` (2.4-2.27: hex mask <=2.26, range list
// 2.27) and `ncclTopoGetCpuAffinity: Affinity for GPU %d is %s. (GPU affinity
// = %s ; CPU affinity = %s).` (2.28+). `affinity` is NCCL's final set: the
// process's CPU set and the GPU's local CPUs intersected.
struct AffinityEvent {
  int gpu = -1;  // cudaDev
  std::string_view affinity;      // empty when NCCL printed "empty, ignoring"
  bool hex_mask = false;          // `affinity` is a hex mask (<=2.26)
  bool empty = false;             // 2.28+ "is empty, ignoring"
  std::string_view gpu_affinity;  // 2.28+ only
  std::string_view cpu_affinity;  // 2.28+ only, absent with NCCL_IGNORE_CPU_AFFINITY
};

// GRAPH `Pattern %d, crossNic %d, nChannels %d, bw %f/%f, type %s/%s,
// sameChannels %d` (2.14+; `speed %f/%f` 2.6-2.13).
struct GraphPatternEvent {
  int pattern = 0;
  int cross_nic = 0;
  uint32_t nchannels = 0;
  double bw_intra = 0;
  double bw_inter = 0;
  std::string_view type_intra;  // NVL, PIX, PXB, PHB, SYS...
  std::string_view type_inter;
};

}  // namespace nd
