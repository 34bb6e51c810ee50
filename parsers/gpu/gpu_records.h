#pragma once
// What the outputs around a job say about its GPUs, as typed records: the
// nvidia-smi table, its CSV queries and dmon, `nvidia-smi topo -m`,
// nccl-tests and a Horovod timeline. The readers in this folder fill them
// from one stream's lines; the model joins them with the NCCL log by host.
// Every number a tool can leave out ("N/A", "-", "[N/A]") is optional.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd {

// Which output a record came from: the JSON `inputs[].kind`.
enum class SideKind : uint8_t { SmiTable, SmiCsv, SmiDmon, SmiTopo, NcclTests, HorovodTimeline };

// One GPU at one moment. The table gives one sample a GPU; a looped CSV
// query (`-l N`) or dmon one per GPU per interval.
struct GpuSample {
  SideKind from = SideKind::SmiTable;
  uint64_t line = 0;
  std::optional<uint32_t> index;     // nvidia-smi's GPU index
  std::string bus_id;                // as printed: "00000000:06:00.0", "0000:06:00.0"; empty when absent
  std::string uuid;                  // "GPU-…"; empty when absent
  std::string name;                  // may end in "..." where the table cut it
  std::string time;                  // as printed (CSV `timestamp`, dmon Date/Time); empty when absent
  std::optional<double> util_pct;          // utilization.gpu, dmon `sm`
  std::optional<double> mem_bw_util_pct;   // utilization.memory, dmon `mem`: bandwidth, not capacity
  std::optional<double> mem_used_mib;      // table Memory-Usage, memory.used, dmon `fb`
  std::optional<double> mem_total_mib;
  std::optional<double> power_w;
  std::optional<double> power_limit_w;
  std::optional<double> temp_c;            // GPU temperature (dmon `gtemp`/`temp`)
  std::optional<double> sm_clock_mhz;      // clocks.sm, dmon `pclk`
  std::optional<double> max_sm_clock_mhz;  // clocks.max.sm
  std::optional<double> power_violation;   // dmon `pviol` (% of the interval, or a count)
  std::optional<double> thermal_violation; // dmon `tviol`
  std::string perf_state;                  // "P0"; empty when absent
  // The driver and the newest CUDA it supports, as printed: the table's
  // header ("Driver Version: 535.104.05", "CUDA Version: 12.2"; R610's "KMD
  // Version"/"CUDA UMD Version"), CSV `driver_version`; empty when absent.
  std::string driver_version;
  std::string cuda_version;
};

// A process that holds a GPU (the table's Processes section, or
// `--query-compute-apps`).
struct GpuProcess {
  SideKind from = SideKind::SmiTable;
  uint64_t line = 0;
  std::optional<uint32_t> gpu_index;  // the table names the GPU by index
  std::string gpu_bus_id;             // --query-compute-apps=gpu_bus_id
  std::string gpu_uuid;               // --query-compute-apps=gpu_uuid
  std::optional<uint64_t> pid;        // absent ("N/A") inside some containers
  std::string type;                   // "C", "G", "C+G", "M", "M+C"; empty when absent
  std::string name;                   // may end in "..."
  std::optional<double> mem_mib;      // absent: "N/A" (e.g. under WSL or MIG)
  // The MIG GPU instance (the table's GI ID); absent for a whole GPU, where
  // R450+ prints "N/A", and in tables without the column.
  std::optional<uint32_t> gpu_instance;
  // The MPS control daemon's server (nvidia-cuda-mps-server), which every
  // GPU it serves lists: its clients share the GPU on purpose.
  bool mps_server = false;
};

// GeForce and TITAN boards: no peer access between them over PCIe.
inline bool names_consumer_board(std::string_view gpu_name) {
  return gpu_name.find("GeForce") != std::string_view::npos || gpu_name.find("TITAN") != std::string_view::npos;
}

// A process name that is the MPS server's, also as the table cuts it
// ("...-cuda-mps-server").
inline bool names_mps_server(std::string_view name) { return name.find("mps-server") != std::string_view::npos; }

// `nvidia-smi topo -m`: the matrix as printed, NIC names resolved.
struct TopoMatrix {
  uint64_t line = 0;  // the header's
  // The column devices in order, NICs under their real names ("mlx5_0",
  // not "NIC0", when a NIC Legend gave them).
  std::vector<std::string> devices;
  // links[row device][column device]: "X", "NV18", "PIX", "PXB", "PHB",
  // "NODE", "SYS" ("SOC" read as "SYS").
  std::map<std::string, std::map<std::string, std::string>> links;
  // Per GPU row: the `CPU Affinity` cell ("0-47,96-143"; empty when the
  // cell is), `NUMA Affinity` and `GPU NUMA ID` ("N/A" as empty).
  std::map<std::string, std::string> cpu_affinity;
  std::map<std::string, std::string> numa_affinity;
  std::map<std::string, std::string> gpu_numa_id;
};

// One nccl-tests run: a header, rank lines, a results table, a footer.
struct NcclTestsRank {
  uint32_t rank = 0;
  std::optional<uint32_t> group;
  std::optional<uint64_t> pid;
  std::string host;
  uint32_t device = 0;
  std::string bus;   // "0x0f" or "0000:19:00", as printed inside the brackets
  std::string name;  // "NVIDIA H100 80GB HBM3"
};

struct NcclTestsRow {
  uint64_t line = 0;
  uint64_t size_bytes = 0;
  uint64_t count = 0;
  std::string type;   // "float"
  std::string redop;  // "sum", "none"; empty in pre-2.13 tables without the column
  std::optional<int64_t> root;
  // Out-of-place, then in-place: time in µs, algbw and busbw in GB/s; the
  // #wrong count (absent for "N/A", and in pre-2.13 tables whose last column
  // is the max error instead, kept in *_error).
  std::optional<double> oop_time_us, oop_algbw_gbs, oop_busbw_gbs;
  std::optional<uint64_t> oop_wrong;
  std::optional<double> oop_error;
  std::optional<double> ip_time_us, ip_algbw_gbs, ip_busbw_gbs;
  std::optional<uint64_t> ip_wrong;
  std::optional<double> ip_error;
  std::string timestamp;  // `-S 1`: "2025-10-20 13:45:01"; empty without the column
};

struct NcclTestsRun {
  uint64_t line = 0;   // the first header line read
  std::string op;      // "all_reduce" (from "all_reduce_perf"); empty when the output never says
  std::string version; // "2.17.4"; empty before nccl-tests printed it
  std::optional<uint32_t> nthread, ngpus;
  std::optional<uint64_t> min_bytes, max_bytes;
  // The ranks its command line starts: the launcher's process count times
  // the test's threads (-t) and GPUs (-g) each, or the header's.
  std::optional<uint32_t> launched_ranks;
  std::vector<NcclTestsRank> ranks;
  // The ranks the run had: its rank lines, else its command line's.
  std::optional<size_t> rank_count() const {
    if (!ranks.empty()) return ranks.size();
    return launched_ranks;
  }
  std::vector<NcclTestsRow> rows;
  std::optional<uint64_t> out_of_bounds;  // "# Out of bounds values : N OK|FAILED"
  bool out_of_bounds_failed = false;
  std::optional<double> avg_busbw_gbs;    // "# Avg bus bandwidth : X"
  std::vector<uint64_t> failure_lines;    // "Test NCCL failure", "Test CUDA failure", "Test failure"
  std::vector<std::string> failure_texts;  // those lines as read, same order
  // "OK"/"FAILED" after the average: only when NCCL_TESTS_MIN_BW was set.
  std::optional<bool> avg_busbw_ok;
  bool cputime = false;                    // `-C 1`: the time columns are CPU time
  std::optional<uint64_t> reduced_max_bytes;  // "# Reducing maxBytes to N due to memory limitation"
  std::optional<uint32_t> nccl_headers, nccl_library;  // codes on the version line (22703)
};

// A Horovod timeline (Chrome trace): time per activity, per tensor.
struct HorovodActivity {
  std::string tensor;    // the process_name of the trace "process"
  std::string activity;  // "NEGOTIATE_ALLREDUCE", "QUEUE", "MEMCPY_IN_FUSION_BUFFER", "NCCL_ALLREDUCE", …
  double total_us = 0;
  uint64_t count = 0;
};

// What an activity's time goes to, after Horovod's docs/timeline.rst.
enum class HorovodPhase : uint8_t {
  Negotiate,    // NEGOTIATE_*: rank 0 waits until every rank is ready for the tensor
  WaitForData,  // WAIT_FOR_DATA, WAIT_FOR_OTHER_TENSOR_DATA: the GPU still computes the inputs
  Queue,        // QUEUE: the previous NCCL operation has not finished
  FusionCopy,   // MEMCPY_IN/OUT_FUSION_BUFFER
  Collective,   // NCCL_*, MPI_*, GLOO_*, CCL_* and a hierarchical allreduce's host copies
  Other,        // the operation's own bar (ALLREDUCE, …), INIT_NCCL, ALLOCATE_OUTPUT, …
};

// Wall time during which at least one activity of a phase was under way, of
// any tensor. A fused operation shows under each of its tensors, so the
// per-tensor totals count it once per tensor; these count it once.
struct HorovodBusy {
  double negotiate_us = 0, data_wait_us = 0, queue_us = 0, fusion_copy_us = 0, collective_us = 0;
  double comm_us = 0;            // collective, queue or fusion copy: the collectives' pipeline at work
  double comm_negotiate_us = 0;  // that or a negotiation
  uint64_t collectives = 0;      // separate runs of collective time: a fused operation is one
  uint64_t fusion_copies_in = 0; // separate runs of MEMCPY_IN_FUSION_BUFFER: fused operations
};

struct HorovodTimeline {
  uint64_t line = 0;
  double first_us = 0, last_us = 0;  // the span of all events' ts (+dur)
  uint64_t events = 0;
  bool terminated = false;           // the closing "]" was seen
  std::vector<HorovodActivity> activities;  // one per (tensor, activity)
  // pid 0's `start_time_since_epoch_in_micros` (Horovod 0.21+): ts 0 on the wall clock.
  std::optional<int64_t> start_time_since_epoch_us;
  // Begun ("B") and never ended when the file stops: a killed or stalled job's
  // last operations. total_us runs to last_us; count is how many were open.
  std::vector<HorovodActivity> unfinished;
  // Rank -> how many negotiations it was the last to report ready for (the
  // `X` ticks named by rank inside NEGOTIATE_*): the rank the others waited on.
  std::map<uint32_t, uint64_t> last_ready;
  // Rank -> the time from the tick before its tick to its tick, summed over
  // those negotiations: how long the others waited for it. Ticks of one
  // cycle lie microseconds apart, so the rank that happens to be read last
  // in a cycle adds almost nothing.
  std::map<uint32_t, double> last_ready_wait_us;
  HorovodBusy busy;  // finished activities only
};

// Everything the readers of one stream found, in the order they found it.
struct GpuRecords {
  std::vector<GpuSample> samples;
  std::vector<GpuProcess> processes;
  std::vector<TopoMatrix> topologies;
  std::vector<NcclTestsRun> nccl_tests;
  std::vector<HorovodTimeline> timelines;
  // Which kinds were seen at all (a table with no GPU still says nvidia-smi).
  std::vector<SideKind> kinds;
  void saw(SideKind k) {
    for (SideKind seen : kinds) {
      if (seen == k) return;
    }
    kinds.push_back(k);
  }
};

// A reader of one format, fed the lines of one stream in order, without
// launcher prefixes or control bytes.
class BlockReader {
 public:
  explicit BlockReader(GpuRecords& out) : out_(out) {}
  virtual ~BlockReader() = default;
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  // Returns true when `payload` belongs to this format: a header, a row, a
  // footer. A line that does not (noise printed in between) returns false
  // and leaves the reader where it was, unless the format cannot go on
  // after it (the table's box ends at the first line that is not part of it).
  virtual bool take(std::string_view payload, uint64_t line) = 0;
  // Whether the reader is inside a block: it then sees each line first.
  virtual bool in_block() const = 0;
  // The stream ended: keep what is pending.
  virtual void finish() {}

 protected:
  GpuRecords& out_;
};

}  // namespace nd
