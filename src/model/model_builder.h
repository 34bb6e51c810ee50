#pragma once
// Streams lines into a JobModel. Assigns comm-scoped lines (connections, ring
// listings, GRAPH rings, trees) to communicators as NCCL's ordering allows:
// by the open `Init START` (2.18.3+), by the next `Init COMPLETE` (older), or
// by the process's own rank for 2.22+ runtime connections.

#include <deque>
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

#include "parsers/binding.h"
#include "parsers/envelope.h"
#include "parsers/line_classifier.h"
#include "parsers/line_splitter.h"
#include "src/model/job_model.h"
#include "src/util/id_set.h"
#include "src/util/name_set.h"

namespace nd {

// The NCCL messages of a run of lines, cut out and classified without touching
// the model, so that worker threads can do it; ModelBuilder::apply() then
// merges them in line order. Views point into the lines (which must outlive
// apply()) or into `cleaned`.
struct ParsedLines {
  enum class Kind : uint8_t {
    Message,       // a header and its event: goes through the whole model
    Banner,        // header-less `NCCL version` banner; header.host = launcher host
    HostSighting,  // a per-operation line: only its host name matters
    Binding,       // a launcher's CPU binding report: bindings[index]
    Framework,     // a framework's error line (watchdog, `Last error:`, NCCL error)
    LastErrorText, // the line after `Last error:`, whatever it holds
  };
  struct Item {
    Kind kind = Kind::Message;
    bool spliced = false;  // text glued before the header may have eaten into the host
    uint64_t line = 0;     // Line::number as given to parse_line
    uint32_t index = 0;    // Binding: into `bindings`
    FrameworkKind framework = FrameworkKind::LastError;
    std::string_view raw;  // the line segment, for evidence
    NcclHeader header;
    Event event;
    // A header without a usable host (HostForm::Placeholder or Absent): what
    // the launcher prefix says about where the line came from.
    std::string_view launcher_host;
    std::optional<uint32_t> launcher_rank;
    Launcher rank_from = Launcher::None;
  };
  std::vector<Item> items;
  std::vector<BindingLine> bindings;
  uint64_t lines = 0;
  uint64_t truncated_lines = 0;
  uint64_t nccl_lines = 0;
  uint64_t info_lines = 0;
  uint64_t warn_lines = 0;
  uint64_t spliced_lines = 0;
  // The last line parsed opened a `Last error:` message.
  bool expect_last_error = false;
  // The first line's share, taken back when it turns out to be the message
  // of a `Last error:` line at the end of the batch before.
  std::string_view first_text;
  uint64_t first_number = 0;
  size_t first_items = 0;
  uint64_t first_nccl = 0, first_info = 0, first_warn = 0, first_spliced = 0;
  std::deque<std::string> cleaned;  // lines that had control bytes, cleaned
  std::string scratch;
  // Hosts already named by an item, or interned before these lines were
  // parsed: their per-operation lines change nothing and are only counted.
  NameSet hosts;
  std::shared_ptr<const NameSet> known_hosts;

  void clear();
};

class ModelBuilder {
 public:
  // Called, in line order, for every NCCL line the model takes in, with the
  // line's text; per-operation lines of known hosts are only counted and not
  // shown (live mode hooks here).
  using Observer = std::function<void(LineRef, std::string_view raw, const NcclHeader&, const Event&)>;

  explicit ModelBuilder(JobModel& model) : model_(model) {}
  const JobModel& model() const { return model_; }

  uint32_t add_file(std::string display_name);
  // Same as parse_line() then apply() with a base of 0.
  void add_line(uint32_t file, const Line& line);
  // Cuts one line into messages; reads nothing but its arguments, so any
  // number of threads may parse at once.
  static void parse_line(const Line& line, ParsedLines& out);
  // parse_line() for the chunked reader, which has found from the line's
  // byte marks that the " NCCL " at `marker` is its only one and that it
  // holds no control byte (npos: it could not tell). A per-operation line of
  // a known host is then only counted, without a second look.
  static void parse_marked_line(const Line& line, size_t marker, ParsedLines& out);
  // The first line of a multi-line batch must not hold "Last error:" (see
  // line_feeder.cpp, which applies such a chunk line by line).
  static bool needs_line_by_line(std::string_view first_line);
  // Merges parsed lines in order; an item's line number is line_base + Item::line.
  void apply(uint32_t file, uint64_t line_base, const ParsedLines& parsed);
  // The host names interned so far, for ParsedLines::known_hosts; rebuilt
  // as hosts are added, at a cost of O(1) a line. Call from the applying
  // thread.
  std::shared_ptr<const NameSet> host_snapshot();
  // Assigns what is still pending and merges edges. Call once, at the end.
  void finish();

  void set_observer(Observer observer) { observer_ = std::move(observer); }

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
  struct Process {
    uint32_t host = kNoHost;
    uint64_t pid = 0;
    std::vector<CommSlot> slots;
    std::vector<Pending> pending;
    bool saw_start = false;
    std::map<int, uint32_t> completes_per_dev;  // seq numbering without commId (by rank when the pid is synthetic)
    LineRef first_line;
    LineRef last_line;
    uint64_t lines = 0;
    uint32_t init_starts = 0;
    uint32_t init_completes = 0;
    int64_t own_rank = -1;
    bool init_phase = false;
    LineRef init_phase_line;
  };

  static void parse_binding_line(const Line& line, ParsedLines& out);
  // try_count = false: the caller knows the line is not one to only count.
  static void parse_one_line(const Line& line, ParsedLines& out, bool try_count = true);
  void add_binding(LineRef ref, std::string_view clean, const BindingLine* b);
  void add_affinity(uint32_t host, uint64_t pid, LineRef ref, std::string_view raw, const AffinityEvent& e);
  Who identify(LineRef ref, const ParsedLines::Item& item, bool message);
  void handle(LineRef ref, Who who, std::string_view raw, const NcclHeader& h, const Event& ev);
  Process& process(uint32_t host, uint64_t pid);
  // Merges connection records into edges: once at the end, and whenever the
  // records of a communicator pile up (a log that repeats its lines).
  static void merge_records(Communicator& comm);
  void on_init(Process& p, LineRef ref, const NcclHeader& h, const InitEvent& ev);
  void route(Process& p, LineRef ref, uint32_t own_rank, uint32_t max_rank, Scoped item);
  void store(size_t comm, Process& p, uint32_t own_rank, Scoped&& item);
  void flush_pending(Process& p, const CommSlot& slot);
  void infer_hosts_from_local_links(Communicator& comm);
  void group_unnamed_hosts(Communicator& comm);
  bool is_local_link(const Edge& e) const;
  size_t find_or_add_comm(const std::string& key, std::optional<uint64_t> id, uint32_t nranks);
  // The id of `host`; `added` tells whether the name is new.
  uint32_t resolve_host(std::string_view host, bool spliced, bool* added = nullptr);
  void add_framework_line(FrameworkKind kind, LineRef ref, std::string_view text);
  void mark_init_phase(Process& p, LineRef ref, std::string_view raw);
  void learn_addresses(std::string_view text, uint32_t host);
  uint16_t intern_transport(std::string_view text);
  void remember_text(uint64_t bucket, LineRef ref, std::string_view raw);
  void add_host_nets(uint32_t host, const NetUsingEvent& e, LineRef ref);
  void add_net_note(uint32_t host, uint64_t pid, const NetNoteEvent& e, LineRef ref, std::string_view raw);
  void observe(std::map<std::string, std::vector<Observation>>& where, std::string_view key,
               uint32_t host, uint64_t pid, LineRef ref);

  JobModel& model_;
  Observer observer_;
  std::map<std::tuple<uint32_t, uint64_t>, Process> processes_;
  std::unordered_map<ProcessKey, Process*, ProcessKeyHash> process_index_;
  // Per host, its first processes: a host runs a few, asked for on every line.
  std::vector<std::vector<std::pair<uint64_t, Process*>>> host_processes_;
  ProcessKey last_process_key_{};
  Process* last_process_ = nullptr;  // std::map nodes do not move
  std::unordered_set<SeenKey, SeenKeyHash> observed_;
  std::unordered_set<std::string> env_seen_;  // host, name and value
  ParsedLines single_;  // add_line's
  std::shared_ptr<const NameSet> host_snapshot_;
  uint64_t snapshot_lines_ = 0;  // lines applied when host_snapshot_ was made
  std::map<std::string, size_t> comm_index_;
  IdSet text_buckets_;
  std::map<std::pair<uint32_t, std::string>, size_t> host_net_index_;
  std::set<std::tuple<uint32_t, int, uint32_t, std::string, std::string>> pattern_keys_;
  std::set<std::tuple<uint32_t, uint64_t, int>> affinity_keys_;
  std::set<std::tuple<uint32_t, int, std::string, int, std::string>> net_note_keys_;
  std::set<std::tuple<int, uint32_t, uint32_t>> binding_keys_;
  bool expect_last_error_ = false;
  std::string scratch_;  // for the applying side
  std::vector<FirstLineHost> first_line_hosts_;  // not seen since; usually none
  std::unordered_map<std::string, uint32_t> renamed_hosts_;  // lost-character name -> its host
};

}  // namespace nd
