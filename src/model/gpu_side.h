#pragma once
// What the outputs around the job say about its GPUs (nvidia-smi and its
// CSV, dmon, topo -m, nccl-tests, a Horovod timeline), by host, folded so
// that memory grows with the GPUs and not with the length of a sampling
// log: each GPU keeps its counters and a bounded series of utilisation.

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "parsers/events.h"
#include "parsers/gpu/gpu_records.h"
#include "src/util/text_store.h"
#include "parsers/gpu/side_stream.h"
#include "parsers/parsed_lines.h"

namespace nd {

struct GpuProcessFact {
  std::optional<uint64_t> pid;
  std::string type;  // "C", "G", "M+C", …; empty when the source did not say
  std::string name;
  std::optional<double> mem_mib;
  LineRef ref;
  std::optional<uint32_t> gpu_instance;  // MIG GI ID; absent for a whole GPU
  bool mps_server = false;
};

// One GPU of one host, every sample of every source that named it.
struct GpuTrack {
  std::string host;  // empty: an input that named no host
  std::optional<uint32_t> index;
  std::string bus_id;  // canonical_bus_id()
  std::string uuid;
  std::string name;
  uint64_t samples = 0;
  LineRef first, last;
  // Utilisation: every sample counted; the series keeps every
  // util_stride-th one, at most kMaxSeries, in input order.
  uint64_t util_samples = 0;
  double util_sum = 0;
  std::optional<double> util_max;
  std::vector<float> util_series;
  uint32_t util_stride = 1;
  std::optional<double> mem_used_mib;   // the last sample's
  // The largest memory used of any sample: the job's high-water mark, which
  // an idle tail after the job exits (a few MiB) does not lower.
  std::optional<double> mem_used_peak_mib;
  std::optional<double> mem_total_mib;
  std::optional<double> power_max_w;
  std::optional<double> power_limit_w;
  std::optional<double> max_sm_clock_mhz;  // the largest clocks.max.sm, or the highest clock seen
  // Samples under load (utilisation >= kLoaded), how many of them show a
  // power or thermal violation (dmon `pviol` or `tviol` above 0), and their
  // SM clocks.
  uint64_t loaded_samples = 0;
  uint64_t violation_samples = 0;
  std::vector<float> loaded_sm_clocks;  // sampled like util_series
  uint32_t clock_stride = 1;
  LineRef first_violation;
  std::vector<GpuProcessFact> processes;

  static constexpr size_t kMaxSeries = 4096;
  static constexpr double kLoaded = 50;
  static constexpr size_t kMaxProcesses = 256;
};

struct TopologyFact {
  std::string host;
  LineRef ref;
  TopoMatrix matrix;
};

struct NcclTestsFact {
  LineRef ref;
  uint32_t file = 0;
  NcclTestsRun run;
};

struct TimelineFact {
  LineRef ref;
  HorovodTimeline timeline;
};

struct GpuSide {
  std::vector<GpuTrack> gpus;  // by host, then index
  std::vector<TopologyFact> topologies;
  std::vector<NcclTestsFact> nccl_tests;
  std::vector<TimelineFact> timelines;
  std::vector<std::pair<uint32_t, SideKind>> input_kinds;  // (file, kind), each once

  static constexpr size_t kMaxGpus = 65536;
  static constexpr size_t kMaxDocuments = 4096;  // each of topologies, nccl_tests, timelines

  bool empty() const { return gpus.empty() && topologies.empty() && nccl_tests.empty() && timelines.empty(); }
  // Whether anything was measured: an nccl-tests header with its ranks but
  // no result row (the test died, or the paste stops there) measured nothing.
  bool measured() const {
    return !gpus.empty() || !topologies.empty() || !timelines.empty() ||
           std::any_of(nccl_tests.begin(), nccl_tests.end(),
                       [](const NcclTestsFact& t) { return !t.run.rows.empty() || !t.run.failure_lines.empty(); });
  }
};

// Feeds the lines no NCCL reader took to a SideStream per (input, host) and
// folds what the readers find into a GpuSide.
class GpuSideBuilder {
 public:
  // Cited lines' text goes to `texts` (JobModel::line_text), at most `cap`.
  GpuSideBuilder(TextStore& texts, size_t cap) : texts_(texts), cap_(cap) {}
  void add(LineRef ref, const ParsedLines::OtherLine& line);
  // Ends every stream; the result is in `side`.
  void finish(GpuSide& side);
  // Names the host of every line of `file` that no prefix names (HOST=FILE).
  void set_file_host(uint32_t file, std::string host);

 private:
  struct Stream {
    uint32_t file = 0;
    std::string host;
    std::string prefix_host;  // as the last line's prefix named it (empty: none)
    SideStream stream;
    // The last lines fed, for the text of the lines a record cites: the
    // readers report a block once it ends.
    std::array<std::pair<uint64_t, std::string>, 256> recent;
    size_t next = 0;
    size_t documents = 0;  // topologies and timelines already cited
    // Per nccl-tests run: its rows and failure lines already cited (a run
    // grows row by row after its header).
    std::vector<std::pair<size_t, size_t>> cited_runs;
    // `--query-compute-apps` rows that name no GPU (`pid,process_name,
    // used_memory`): the GPU's when the host turns out to have one.
    std::vector<GpuProcess> unplaced;
  };
  void cite(const Stream& s, uint64_t line);
  void cite_documents(Stream& s);
  void place_unplaced(Stream& s);
  Stream& stream(uint32_t file, std::string_view host);
  void drain(Stream& s);
  // The GPU of `host` these identify; `name` (may be empty) keeps GPUs of
  // different models apart where bare files of two machines share a host,
  // and of two such, the one `file` fed last is taken.
  GpuTrack& track(uint32_t file, const std::string& host, const std::optional<uint32_t>& index,
                  const std::string& bus_id, const std::string& uuid, std::string_view name);
  void add_sample(Stream& s, const GpuSample& sample);
  void add_process(Stream& s, const GpuProcess& p);

  std::map<std::tuple<uint32_t, std::string>, Stream> streams_;
  Stream* last_ = nullptr;  // std::map nodes do not move
  std::map<uint32_t, std::string> file_hosts_;
  GpuSide side_;
  TextStore& texts_;
  size_t cap_;
};

// The steady-state utilisation of a GPU: the samples from the first that
// reaches half of the series' 90th percentile to the last that does, so a
// warm-up before the first step and an idle tail after the last do not
// count. Empty when the series is.
struct UtilStats {
  uint64_t samples = 0;  // in the steady part of the series
  double mean = 0;
  double p10 = 0;
  double dips = 0;  // share of steady samples below the threshold asked
};
UtilStats steady_util(const std::vector<float>& series, double threshold);

}  // namespace nd
