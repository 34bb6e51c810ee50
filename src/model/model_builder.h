#pragma once
// Merges parsed lines into a JobModel, one handler per event family. Assigns
// comm-scoped lines (connections, ring listings, GRAPH rings, trees) to
// communicators as NCCL's ordering allows: by the open `Init START`
// (2.18.3+), by the next `Init COMPLETE` (older), or by the process's own rank
// for 2.22+ runtime connections.
//
// The work is spread by family: model_builder.cpp (the merge and dispatch),
// comm_assignment.cpp, host_resolution.cpp, network_records.cpp and
// process_records.cpp.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "parsers/line_parser.h"
#include "parsers/parsed_lines.h"
#include "src/model/gpu_side.h"
#include "src/model/job_model.h"
#include "src/model/probe_records.h"
#include "src/util/id_set.h"
#include "src/util/name_set.h"

namespace nd {

class ModelBuilder {
 public:
  explicit ModelBuilder(JobModel& model) : model_(model) {}
  const JobModel& model() const { return model_; }

  uint32_t add_file(std::string display_name);
  // The same, for an input given as HOST=FILE: lines that no launcher prefix
  // names a host of belong to `host`.
  uint32_t add_file(std::string display_name, std::string host);
  // Lines of `file` are read from `fd`, a regular file, by offset: cited
  // lines are read back from it rather than copied (see
  // ParsedLines::source). Keeps its own descriptor, for the first
  // JobModel::kMaxSourceFiles files only (fewer under a low RLIMIT_NOFILE);
  // later files' cited lines are copied.
  void add_source(uint32_t file, int fd);
  // Same as parse_line() then apply() with a base of 0.
  void add_line(uint32_t file, const Line& line);
  // Merges parsed lines in order; an item's line number is line_base + Item::line.
  void apply(uint32_t file, uint64_t line_base, const ParsedLines& parsed);
  // The host names interned so far, for ParsedLines::known_hosts; rebuilt
  // as hosts are added, at a cost of O(1) a line. Call from the applying
  // thread.
  std::shared_ptr<const NameSet> host_snapshot();
  // Makes the model so far fit to judge, for live mode: merges edges, places
  // hosts, lists processes. Lines that wait for their communicator's Init
  // line stay out of it. Any number of times, between apply() calls.
  void settle();
  // Live mode: the input has been quiet for `seconds` after line `after`.
  // Records, as a StallRecord, the ranks then in communicator init (Init
  // START and no Init COMPLETE); false, recording nothing, when none were.
  bool add_stall(double seconds, LineRef after);
  // Assigns what is still pending (to an "unclaimed" communicator if need
  // be), then settles. Call once, at the end.
  void finish();

 private:
  struct CommSlot {
    size_t comm = 0;
    uint32_t my_rank = 0;
    uint32_t nranks = 0;
    std::string comm_ptr;
    bool open = false;
  };
  struct ProcessKey {
    uint32_t host;
    uint64_t pid;
    bool operator==(const ProcessKey&) const = default;
  };
  struct ProcessKeyHash {
    size_t operator()(const ProcessKey& k) const { return std::hash<uint64_t>{}(k.pid * 0x9e3779b97f4a7c15ull ^ k.host); }
  };
  struct SeenKey {  // one observation list and one process
    const void* list;
    uint32_t host;
    uint64_t pid;
    bool operator==(const SeenKey&) const = default;
  };
  struct SeenKeyHash {
    size_t operator()(const SeenKey& k) const {
      return std::hash<const void*>{}(k.list) ^ (k.pid * 0x9e3779b97f4a7c15ull) ^ (uint64_t{k.host} << 40);
    }
  };
  using Scoped = std::variant<ConnectionRecord, ListingRecord, GraphRingRecord, TreeRecord>;
  struct Pending {
    uint32_t own_rank = 0;
    uint32_t max_rank = 0;
    Scoped item;
  };
  // The host and pid a line's process is known by (see identify()).
  struct Who {
    uint32_t host = kNoHost;
    uint64_t pid = 0;
  };
  // A host first seen on the first line of a file: it may be a longer name
  // whose first characters the terminal lost in the copy.
  struct FirstLineHost {
    uint32_t host;
    uint32_t file;
  };
  // One process: the facts finish() publishes, and how its lines are being
  // assigned to communicators.
  struct Process {
    ProcessRecord rec;
    std::vector<CommSlot> slots;
    std::vector<Pending> pending;
    bool saw_start = false;
    std::map<int, uint32_t> completes_per_dev;  // seq numbering without commId (by rank when the pid is synthetic)
    // The last WARN's index in JobModel::warnings, its thread, and the line
    // its traceback reached: frames that follow on that thread extend it.
    size_t last_warn = SIZE_MAX;
    uint64_t last_warn_tid = 0;
    LineRef last_warn_reach;
    // WARNs whose traceback reached a caller during an init not yet
    // complete: an Init COMPLETE on the same device shows NCCL got past them.
    // An init is open from its START to its COMPLETE; a process that prints
    // no START (before 2.19) is in init until its first COMPLETE.
    std::vector<size_t> failed_in_init;
    std::vector<int> devs_in_init;
    // Its traceback without a WARN, in JobModel::failed_calls.
    size_t failed_call = SIZE_MAX;
  };
  // The NCCL line being handled: where it is, whose it is, its text.
  struct At {
    LineRef ref;
    uint32_t host;
    uint64_t pid;
    std::string_view raw;
    const NcclHeader& header;
    Process& process;
  };

  // Merge and dispatch (model_builder.cpp).
  void apply_item(LineRef ref, const ParsedLines& parsed, const ParsedLines::Item& item);
  void handle(LineRef ref, Who who, std::string_view raw, const NcclHeader& h, const Event& ev);
  Process& process(uint32_t host, uint64_t pid);
  uint32_t host_by_address(const At& at, std::string_view interface, std::string_view address);
  void on(const At&, const UnknownEvent&);
  void on(const At&, const IgnoredEvent&) {}
  void on(const At&, const MalformedEvent&);
  void on(const At&, const CollNetEvent&) {}  // nothing checks CollNet yet
  void remember_text(uint64_t bucket, LineRef ref, std::string_view raw);
  void observe(std::map<std::string, std::vector<Observation>>& where, std::string_view key,
               uint32_t host, uint64_t pid, LineRef ref);

  // Communicators: which one each comm-scoped line belongs to (comm_assignment.cpp).
  void on(const At&, const ConnectionEvent&);
  uint16_t intern_transport(std::string_view text);
  void on(const At&, const RingListingEvent&);
  void on(const At&, const GraphRingEvent&);
  void on(const At&, const TreesEvent&);
  void on(const At&, const InitEvent&);
  std::string comm_key(Process& p, const NcclHeader& h, const InitEvent& ev);
  size_t find_or_add_comm(const std::string& key, std::optional<uint64_t> id, uint32_t nranks);
  void on(const At&, const CommShapeEvent&);
  void route(Process& p, uint32_t own_rank, uint32_t max_rank, Scoped item);
  void store(size_t comm, Process& p, uint32_t own_rank, Scoped&& item);
  void flush_pending(Process& p, const CommSlot& slot);
  void settle_init_failures(Process& p, int dev, bool start);
  void assign_pending();
  // Merges connection records into edges: once at the end, and whenever the
  // records of a communicator pile up (a log that repeats its lines).
  static void merge_records(Communicator& comm);
  void settle_failed_calls();

  // Hosts: names as printed, and hosts the links imply (host_resolution.cpp).
  Who identify(LineRef ref, const ParsedLines::Item& item, bool message);
  // The id of `host`; `added` tells whether the name is new.
  uint32_t resolve_host(std::string_view host, bool spliced, bool* added = nullptr);
  uint32_t renamed_spliced_host(std::string_view host);
  uint32_t glued_known_host(std::string_view host);
  uint32_t renamed_first_line_host(std::string_view host);
  void infer_hosts_from_local_links(Communicator& comm);
  void group_unnamed_hosts(Communicator& comm);
  bool is_local_link(const Edge& e) const;

  // Networks (network_records.cpp).
  void on(const At&, const UsingNetworkEvent&);
  void on(const At&, const NetUsingEvent&);
  void add_host_nets(uint32_t host, const NetUsingEvent& e, LineRef ref);
  void on(const At&, const NetNoteEvent&);
  void add_net_note(const At& at, const NetNoteEvent& e);
  void on(const At&, const BootstrapEvent&);
  void learn_addresses(const std::vector<std::string_view>& addresses, uint32_t host);
  void on(const At&, const NvlsChannelsEvent&);
  void on(const At&, const NvlsConnectedEvent&);

  // What each process printed about itself (process_records.cpp).
  void on(const At&, const VersionEvent&);
  void add_banner(LineRef ref, const ParsedLines::Item& item);
  void on(const At&, const CudaDriverEvent&);
  void on(const At&, const EnvEvent&);
  void on(const At&, const WarnEvent&);
  void on(const At&, const ReturnTraceEvent&);
  void note_failed_call(const At&, const ReturnTraceEvent&);
  void on(const At&, const AffinityEvent&);
  void on(const At&, const GraphPatternEvent&);
  void add_binding(LineRef ref, std::string_view clean, const BindingLine& b);
  void add_framework_line(LineRef ref, const FrameworkLine& line);
  void mark_init_phase(Process& p, LineRef ref, std::string_view raw);

  JobModel& model_;
  GpuSideBuilder gpu_side_{model_.line_text, JobModel::kMaxCachedLines};
  ProbeRecordsBuilder probe_records_{model_};
  std::map<std::tuple<uint32_t, uint64_t>, Process> processes_;
  std::unordered_map<ProcessKey, Process*, ProcessKeyHash> process_index_;
  // Per host, its first processes: a host runs a few, asked for on every line.
  std::vector<std::vector<std::pair<uint64_t, Process*>>> host_processes_;
  ProcessKey last_process_key_{};
  Process* last_process_ = nullptr;  // std::map nodes do not move
  uint32_t last_host_ = kNoHost;     // the last host resolve_host() found by its name
  // Hosts of one name on different bootstrap addresses (default names such
  // as `ubuntu`, anonymised logs): each host's first address, and the
  // processes split off to a host of their own.
  std::map<std::pair<uint32_t, std::string>, std::string> host_address_;  // (host, interface) -> address
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> split_hosts_;
  std::set<std::pair<uint32_t, uint64_t>> addressed_;  // processes that printed an address
  std::set<uint32_t> split_ids_;                      // the hosts split off
  std::unordered_set<SeenKey, SeenKeyHash> observed_;
  std::unordered_set<std::string> env_seen_;  // host, name and value
  ParsedLines single_;  // add_line's
  std::shared_ptr<const NameSet> host_snapshot_;
  uint64_t snapshot_lines_ = 0;  // lines applied when host_snapshot_ was made
  std::map<std::string, size_t> comm_index_;
  // Entries of the Trees line being stored: a communicator's first one
  // reserves room for every rank's line at once.
  size_t trees_per_line_ = 1;
  IdSet text_buckets_;
  std::map<std::pair<uint32_t, std::string>, size_t> host_net_index_;
  std::unordered_set<uint32_t> bootstrap_hosts_;  // hosts with a BootstrapRecord
  std::set<std::tuple<uint32_t, int, uint32_t, std::string, std::string>> pattern_keys_;
  std::set<std::tuple<uint32_t, uint64_t, int>> affinity_keys_;
  std::set<std::tuple<uint32_t, int, std::string, int, std::string>> net_note_keys_;
  std::set<std::tuple<int, uint32_t, uint32_t>> binding_keys_;
  bool expect_last_error_ = false;
  // The batch being applied: where its views point in their file, if anywhere.
  std::string_view source_;
  int64_t source_offset_ = -1;
  std::vector<FirstLineHost> first_line_hosts_;  // not seen since; usually none
  std::vector<uint32_t> spliced_hosts_;  // new hosts seen only behind another line's text
  // The shortest head-cut host name matched to a whole one: shorter could be
  // anybody's tail (`node1` of `gpu-node1` and `cpu-node1`).
  static constexpr size_t kMinCutHost = 6;
  std::unordered_map<std::string, uint32_t> renamed_hosts_;  // lost-character name -> its host
};

}  // namespace nd
