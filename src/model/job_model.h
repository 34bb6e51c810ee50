#pragma once
// What the log says about the job: hosts, processes, communicators, their
// ranks and connection edges. Sized by ranks x channels, never by log length.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parsers/binding.h"
#include "parsers/events.h"
#include "parsers/framework_lines.h"
#include "parsers/parsed_lines.h"
#include "parsers/transport.h"
#include "parsers/warn_classes.h"
#include "src/model/gpu_side.h"
#include "src/probe/node_snapshot.h"
#include "src/util/interner.h"
#include "src/util/text_store.h"

namespace nd {

inline constexpr uint32_t kNoHost = UINT32_MAX;
inline constexpr uint16_t kNoTransport = UINT16_MAX;

// A line that lost its `host:pid:tid` names no process; the model groups such
// lines by what they do carry, a launcher's rank label or else the device,
// within one input file, under a made-up pid. Linux pids stay below 2^22, so
// these never meet a real one.
inline constexpr uint64_t kSyntheticPid = uint64_t{1} << 62;
enum class SyntheticSource : uint8_t { LauncherRank = 1, Device = 2 };
struct SyntheticProcess {
  SyntheticSource source = SyntheticSource::Device;
  uint8_t launcher = 0;  // a Launcher (parsers/envelope.h), for LauncherRank
  uint32_t file = 0;
  int64_t value = -1;    // the launcher's rank, or the device (-1: none)
};
inline bool is_synthetic_pid(uint64_t pid) { return (pid & kSyntheticPid) != 0; }
uint64_t synthetic_pid(const SyntheticProcess& p);
SyntheticProcess synthetic_process(uint64_t pid);

struct RankInfo {
  uint32_t host = kNoHost;
  // When the host is unknown: ranks of one communicator with the same group
  // are known to share a host (P2P or SHM joins them); kNoHost when alone.
  uint32_t host_group = kNoHost;
  uint64_t pid = 0;
  int cuda_dev = -1;
  int nvml_dev = -1;
  std::optional<uint64_t> bus_id;
  bool init_started = false;
  bool init_completed = false;
  LineRef init_line;      // Init START, else Init COMPLETE
  LineRef complete_line;  // Init COMPLETE, when printed
};

// One connection line, before the [send]/[receive] halves are merged.
struct ConnectionRecord {
  uint32_t sender = 0;
  uint32_t receiver = 0;
  uint16_t channel = 0;
  int8_t conn_index = -1;
  Direction direction = Direction::None;
  uint16_t transport = kNoTransport;
  LineRef line;
};

// One directed link on one channel and connection index, both halves merged.
// 32 bytes: a job keeps one per rank, channel and direction.
struct Edge {
  uint32_t sender = 0;
  uint32_t receiver = 0;
  LineRef send_line;
  LineRef recv_line;
  uint16_t channel = 0;
  uint16_t send_transport = kNoTransport;  // as the sender printed it
  uint16_t recv_transport = kNoTransport;  // as the receiver printed it
  int8_t conn_index = -1;
  bool one_line = false;  // NCCL < 2.12: one line per link, no [send]/[receive] halves
  uint16_t transport() const { return send_transport != kNoTransport ? send_transport : recv_transport; }
  LineRef line() const { return send_transport != kNoTransport ? send_line : recv_line; }
  // Both sides have printed the link: nothing more can come of it.
  bool both_halves() const { return one_line || (send_transport != kNoTransport && recv_transport != kNoTransport); }
};

static_assert(sizeof(Edge) == 32);

struct ListingRecord {
  uint16_t channel = 0;
  std::vector<uint32_t> ranks;
  bool truncated = false;
  bool four_byte_slots = false;
  LineRef line;

  // How many leading ranks can be read for certain in a communicator of
  // `nranks`: in ≤2.22 slots a 3-digit number before the last may be the
  // head of a 4-digit rank whose tail the next slot overwrote.
  size_t readable(uint32_t nranks) const;
  // Every rank of the ring, each once: the listing shows the whole ring.
  bool whole(uint32_t nranks) const;
};

struct GraphRingRecord {
  uint16_t channel = 0;
  int64_t prev = -1;
  int64_t me = -1;
  int64_t next = -1;
  LineRef line;
};

struct TreeRecord {
  TreeEntry entry;
  LineRef line;
};
static_assert(sizeof(TreeRecord) == 32);

struct Communicator {
  std::string key;  // "0x52e965372ad155ed", or "#k/n" when NCCL prints no commId
  std::optional<uint64_t> comm_id;
  uint32_t nranks = 0;  // 0 when no Init line was seen
  uint32_t nnodes = 0;  // from `nNodes`, 0 when not printed
  bool synthetic = false;  // made up for lines that no Init line claimed
  std::vector<RankInfo> ranks;
  std::vector<ConnectionRecord> records;  // cleared by finalize()
  std::vector<Edge> edges;                // sorted by channel, conn, sender, receiver
  std::vector<ListingRecord> listings;
  std::vector<GraphRingRecord> graph_rings;
  std::vector<TreeRecord> trees;
  LineRef first_line;

  RankInfo& rank(uint32_t r);
  uint32_t host_of(uint32_t r) const { return r < ranks.size() ? ranks[r].host : kNoHost; }
  uint32_t size() const { return nranks ? nranks : static_cast<uint32_t>(ranks.size()); }
};

struct Observation {
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  LineRef line;
};

struct EnvSetting {
  std::string name;
  std::string value;
  uint32_t host = kNoHost;
  LineRef line;
};

struct WarnRecord {
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  int dev = -1;
  std::string location;
  std::string message;
  LineRef line;
  WarnClass cls;  // what the message says, read once
  // The traceback its thread printed after it: the last frame with its
  // ncclResult_t, and whether a frame was on a path NCCL does not fall back
  // from (see ReturnTraceEvent).
  uint32_t returned_code = 0;
  std::string returned_at;  // `init.cc:1089`
  bool returned_to_caller = false;
};

// A traceback (`init.cc:1501 -> 1`, `group.cc:64 -> 1 [Async thread]`) of a
// process that printed no WARN: NCCL failed a call without saying why. One
// per process, from its first frame; it reached the caller when a frame of
// the API's own files (init, group, enqueue) passed the error on.
struct FailedCallRecord {
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  int dev = -1;
  uint32_t code = 0;  // ncclResult_t of the last frame
  std::string first_at, last_at;  // `init.cc:1501`, `group.cc:64 [Async thread]`
  LineRef first, last;
  uint32_t frames = 0;
  bool reached_caller = false;
  bool in_init = false;
  bool recovered = false;  // an Init COMPLETE on the same device followed, or CollNet's fallback: NCCL got past it
  bool reached_group = false;   // a frame in group.cc: it left init for the group call
};

// A launcher's report of one rank's CPU binding.
struct BindingRecord {
  BindingSource source = BindingSource::OpenMpi;
  uint32_t host = kNoHost;
  uint64_t pid = 0;    // Slurm only: the task's pid
  uint32_t task = 0;   // MPI_COMM_WORLD rank / Slurm global task id
  bool unbound = false;
  bool whole_sockets = false;
  CpuUnit unit = CpuUnit::OsCpu;
  CpuSet cpus;
  LineRef line;
};

// NCCL's own affinity line for one process and GPU.
struct AffinityRecord {
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  int gpu = -1;
  bool empty = false;              // 2.28+ "is empty, ignoring"
  std::optional<CpuSet> affinity;  // the set NCCL applied
  std::optional<CpuSet> gpu_set;   // 2.28+: the GPU's local CPUs
  std::optional<CpuSet> cpu_set;   // 2.28+: the process's binding
  LineRef line;
};

// One GRAPH `Pattern ...` line (one per graph and communicator).
struct GraphPatternRecord {
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  int pattern = 0;
  uint32_t nchannels = 0;
  double bw_intra = 0;
  double bw_inter = 0;
  std::string type_intra;
  std::string type_inter;
  LineRef line;
};

// One NCCL process (host, pid): what it printed about communicator init. Lets
// init-incomplete name processes of logs that print no `Init START` (< 2.18.3).
struct ProcessRecord {
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  LineRef first_line;
  LineRef last_line;
  uint64_t lines = 0;
  uint32_t init_starts = 0;
  uint32_t init_completes = 0;
  int64_t own_rank = -1;  // from its own connection/ring/tree lines, -1 if none
  bool init_phase = false;  // printed an Init START or an init-phase line (network, listing, connection)
  LineRef init_phase_line;  // the first init-phase line
};

// A framework line around NCCL's own (PyTorch ProcessGroupNCCL and friends).
struct FrameworkRecord {
  FrameworkKind kind = FrameworkKind::NcclError;
  uint32_t host = kNoHost;              // pdsh host, when a launcher printed one
  std::optional<uint32_t> launcher_rank;  // [rankN]: / srun label / OMPI tag
  std::string text;                     // the payload, without launcher prefixes
  LineRef line;
  std::optional<WatchdogTimeout> watchdog;    // WatchdogTimeout in PyTorch's shape
  std::optional<WatchdogStuck> stuck;         // WatchdogStuck
  std::optional<NcclErrorReport> nccl_error;  // NcclError in PyTorch's shape
  WarnClass cls;                              // LastError: the message read as a WARN
  std::optional<CrashReport> crash;           // Crash: the signal
  bool in_nccl = false;  // Crash: a backtrace frame within 64 lines after it names NCCL
};

// A pause of a live input (`check --tee --hang-after`): no line for
// `seconds` after `after`, while the ranks whose Init START lines these are
// were in communicator init.
struct StallRecord {
  double seconds = 0;
  LineRef after;
  std::vector<LineRef> starts;
};

// One device of a `NET/<name> : Using` line (see parsers/net_devices.h).
struct NetDevice {
  int index = -1;
  std::string name;        // HCA or interface
  int port = -1;
  std::string link_layer;  // IB, RoCE, UNSPECIFIED; empty for sockets
  std::string address;     // sockets only
};

// The devices a host's NCCL listed for one network; the first line per
// (host, network) wins.
struct HostNets {
  uint32_t host = kNoHost;
  std::string net;  // "IB", "Socket"
  std::vector<NetDevice> devices;
  LineRef line;
};

// The address a host's NCCL bootstraps on: its first `Bootstrap : Using`.
struct BootstrapRecord {
  uint32_t host = kNoHost;
  std::string interface;  // "ib0"
  std::string address;    // "fe80::1%ib0", "10.1.0.10"
  LineRef line;
};

// One line about which networks NCCL could set up (parsers/events.h NetNote),
// from an INFO or a WARN; one per (host, note, name, status), first line kept.
struct NetNoteRecord {
  NetNote note = NetNote::PluginNotFound;
  uint32_t host = kNoHost;
  uint64_t pid = 0;
  std::string name;
  int version = -1;
  int status = -1;
  std::string call;
  LineRef line;
};

// One `nccl-doctor probe --json` record among the inputs: the fabric of the
// node it names (src/probe/snapshot_json.h).
struct ProbeRecordFact {
  LineRef line;      // where the record starts
  std::string host;  // the record's own, else its launcher's or HOST=FILE's; empty: none
  NodeSnapshot node;
};

// A probe record that could not be read: cut short, foreign, or not JSON.
struct ProbeRecordProblem {
  LineRef line;
  std::string error;
  std::string excerpt;  // the start of its text, printable
};

// The lines of every kind read (the parsers' counts) and what the model made
// of them.
struct InputCounters : LineCounts {
  uint64_t unknown_lines = 0;
  uint64_t malformed_lines = 0;
  uint64_t connection_lines = 0;
  uint64_t init_lines = 0;
  uint64_t ambiguous_assignments = 0;
};

// The same host as another input names it: equal, or a short name and a full
// one equal up to the first '.' ("gpu07" and "gpu07.cluster.local"); never
// when either is empty.
bool same_host_name(std::string_view a, std::string_view b);

struct JobModel {
  std::vector<std::string> files;  // display names, indexed by LineRef::file
  // Per file: its NCCL lines and its launcher binding reports.
  std::vector<uint64_t> file_nccl_lines;
  std::vector<uint64_t> file_binding_lines;
  Interner hosts;
  Interner transport_texts;
  std::vector<Transport> transports;  // indexed like transport_texts
  std::vector<Communicator> comms;

  std::map<std::string, std::vector<Observation>> versions;        // "2.18.3" -> who
  std::map<std::string, std::vector<Observation>> cuda_versions;   // NCCL's build CUDA
  std::map<uint32_t, std::vector<Observation>> driver_versions;    // cudaDriverVersion
  std::map<std::string, std::vector<Observation>> using_network;   // authoritative choice
  std::map<std::string, std::vector<Observation>> net_using;       // "IB" -> `NET/IB : Using`
  std::vector<HostNets> host_nets;    // parsed `NET/<name> : Using` device lists, by host
  std::vector<BootstrapRecord> bootstraps;  // one per host, in log order
  std::vector<NetNoteRecord> net_notes;  // plugin, verbs and IB-at-work lines, in log order
  std::vector<EnvSetting> env;        // one per (host, name, value)
  std::vector<WarnRecord> warnings;   // capped, see kMaxWarnings
  std::vector<FailedCallRecord> failed_calls;  // capped like warnings
  std::vector<BindingRecord> bindings;           // launcher binding reports
  std::vector<AffinityRecord> affinities;        // one per (host, pid, gpu, text)
  std::vector<GraphPatternRecord> graph_patterns;  // one per (host, pid, shape)
  std::map<uint32_t, uint32_t> nics_per_host;    // devices in `NET/IB : Using [0]... [3]...`
  uint64_t warnings_dropped = 0;      // WARNs past the cap, still counted
  std::vector<FrameworkRecord> framework_errors;  // capped like warnings
  std::vector<ProcessRecord> processes;           // filled by finish()
  std::vector<StallRecord> stalls;                // live mode only
  std::map<std::string, uint32_t> ip_hosts;       // OOB/bootstrap IPv4 -> host
  uint32_t max_nvls_channels = 0;
  bool nvls_connected = false;
  // The largest `nRanks` and `nNodes` of 2.20+ `comm ... nRanks N nNodes M`
  // lines whose communicator has no Init line in the input (an excerpt).
  uint32_t unclaimed_shape_nranks = 0;
  uint32_t unclaimed_shape_nnodes = 0;
  GpuSide gpu_side;  // nvidia-smi, topo -m, nccl-tests, Horovod: filled by finish()
  // Probe records, in input order, the first of each host (capped); the
  // records of a host already recorded, and those past the cap, are counted.
  std::vector<ProbeRecordFact> probe_records;
  std::vector<ProbeRecordProblem> probe_problems;  // capped like probe_records
  uint64_t probe_records_repeated = 0;

  InputCounters counters;
  std::vector<LineRef> unknown_samples;  // first few unknown-shape lines
  std::vector<LineRef> malformed_samples;

  // Text of cited lines: the first line per (host, transport, peer), bounded.
  TextStore line_text;
  // Per file, when its cited lines are kept as places (TextStore::add_place):
  // the file, open to read them back. Null for streams.
  std::vector<std::shared_ptr<const SourceFile>> sources;

  // Caps on what a hostile or endless log can pile up; past them, lines
  // change nothing (WARNs and framework lines are still counted).
  static constexpr size_t kMaxWarnings = 10000;            // each of warnings, framework_errors
  static constexpr size_t kMaxTopologyRecords = 100000;    // each of bindings, affinities, graph_patterns
  static constexpr size_t kMaxObservations = 100000;       // per version, network or driver
  static constexpr size_t kMaxEnvSettings = 100000;
  static constexpr size_t kMaxHostNets = 100000;
  static constexpr size_t kMaxNetNotes = 100000;
  static constexpr size_t kMaxIpHosts = 100000;
  static constexpr size_t kMaxSamples = 5;
  static constexpr size_t kMaxCachedLines = 200000;
  static constexpr size_t kMaxCitedText = 4096;            // bytes of a cited line kept
  static constexpr size_t kMaxSourceFiles = 64;            // inputs kept open to read cited lines from
  // The text of a cited line whose file changed under it after it was read.
  static constexpr std::string_view kChangedLine = "(this line changed in the file after it was read)";
  static constexpr size_t kMaxProbeRecords = 65536;        // each of probe_records, probe_problems
  static constexpr size_t kMaxProbeRecordBytes = 4u << 20;  // a longer record is not one

  std::optional<std::string> text_of(LineRef ref) const;
  static uint64_t key_of(LineRef ref) { return (uint64_t{ref.file} << 32) | ref.line; }
  std::string where(LineRef ref) const;  // "file:line"
  // "host unknown" for kNoHost: lines whose header held no host, or only a
  // stand-in for one.
  std::string host_name(uint32_t id) const { return id == kNoHost ? "host unknown" : hosts.name(id); }
  // "gpu01 pid 2771", "host unknown pid 919", "host unknown, srun task 3",
  // "host unknown, device 0".
  std::string process_name(uint32_t host, uint64_t pid) const;
  // The devices `host` listed for `net`, or nullptr.
  const HostNets* nets_of(uint32_t host, std::string_view net) const;
};

}  // namespace nd
