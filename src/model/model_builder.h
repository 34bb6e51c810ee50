#pragma once
// Streams lines into a JobModel. Assigns comm-scoped lines (connections, ring
// listings, GRAPH rings, trees) to communicators as NCCL's ordering allows:
// by the open `Init START` (2.18.3+), by the next `Init COMPLETE` (older), or
// by the process's own rank for 2.22+ runtime connections.

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "parsers/line_classifier.h"
#include "parsers/line_reader.h"
#include "src/model/job_model.h"

namespace nd {

class ModelBuilder {
 public:
  // Called for every NCCL line after classification (live mode hooks here).
  using Observer = std::function<void(LineRef, const NcclHeader&, const Event&)>;

  explicit ModelBuilder(JobModel& model) : model_(model) {}

  uint32_t add_file(std::string display_name);
  void add_line(uint32_t file, const Line& line);
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
  using Scoped = std::variant<ConnectionRecord, ListingRecord, GraphRingRecord, TreeRecord>;
  struct Pending {
    uint32_t own_rank = 0;
    uint32_t max_rank = 0;
    Scoped item;
  };
  struct Process {
    uint32_t host = kNoHost;
    uint64_t pid = 0;
    std::vector<CommSlot> slots;
    std::vector<Pending> pending;
    bool saw_start = false;
    std::map<int, uint32_t> completes_per_dev;  // seq numbering without commId
  };

  void add_binding_line(LineRef ref, std::string_view text);
  void add_affinity(uint32_t host, uint64_t pid, LineRef ref, std::string_view raw, const AffinityEvent& e);
  void handle(LineRef ref, std::string_view raw, const NcclHeader& h, const Event& ev, bool spliced);
  void on_init(Process& p, LineRef ref, const NcclHeader& h, const InitEvent& ev);
  void route(Process& p, LineRef ref, uint32_t own_rank, uint32_t max_rank, Scoped item);
  void store(size_t comm, Process& p, uint32_t own_rank, Scoped&& item);
  void flush_pending(Process& p, const CommSlot& slot);
  void infer_hosts_from_local_links(Communicator& comm);
  size_t find_or_add_comm(const std::string& key, std::optional<uint64_t> id, uint32_t nranks);
  uint32_t resolve_host(std::string_view host, bool spliced);
  uint16_t intern_transport(std::string_view text);
  void remember_text(uint64_t bucket, LineRef ref, std::string_view raw);
  void observe(std::map<std::string, std::vector<Observation>>& where, std::string_view key,
               uint32_t host, uint64_t pid, LineRef ref);

  JobModel& model_;
  Observer observer_;
  std::map<std::tuple<uint32_t, uint64_t>, Process> processes_;
  std::map<std::string, size_t> comm_index_;
  std::unordered_map<uint64_t, char> text_buckets_;
  std::string scratch_;
  std::set<std::tuple<uint32_t, int, uint32_t, std::string, std::string>> pattern_keys_;
  std::set<std::tuple<uint32_t, uint64_t, int>> affinity_keys_;
  std::set<std::tuple<int, uint32_t, uint32_t>> binding_keys_;
};

}  // namespace nd
