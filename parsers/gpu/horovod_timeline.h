#pragma once
// Reads a Horovod timeline (HOROVOD_TIMELINE, a Chrome trace): `[`, then
// event objects, one a line with a trailing comma up to Horovod 0.20, many a
// line joined by commas from 0.21 (each write ends in `}]` and the next one
// overwrites the `]`), or the whole array on one line in a re-saved file.
// Each "process" is a tensor; B/E pairs and X events are its activities.
// `events` counts every event object read, the M metadata included.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/gpu/gpu_records.h"
#include "parsers/gpu/interval_union.h"

namespace nd {

// The phase of an activity, by its name as Horovod writes it.
HorovodPhase horovod_phase(std::string_view activity);

class HorovodTimelineReader final : public BlockReader {
 public:
  explicit HorovodTimelineReader(GpuRecords& out) : BlockReader(out) {}

  bool take(std::string_view payload, uint64_t line) override;
  bool in_block() const override { return open_; }
  void finish() override;

  // The fields of one event object that matter here; reused from event to
  // event so that reading one allocates nothing.
  struct TraceEvent {
    std::string ph, name;
    std::optional<double> ts, dur, pid;
    std::string tensor;                   // args.name of process_name metadata
    std::optional<int64_t> start_time;   // args.start_time_since_epoch_in_micros
    bool foreign = false;                 // a key Horovod never writes (tid, cat, ...)
  };

 private:
  // Time spent in one activity of one tensor, before the tensor's name is known.
  struct Total {
    int64_t pid = 0;
    std::string activity;
    HorovodPhase phase = HorovodPhase::Other;
    double total_us = 0;
    uint64_t count = 0;
  };
  struct Begun {
    size_t total = 0;  // index in totals_
    double ts = 0;
  };
  struct Pid {
    std::string tensor;
    std::vector<std::pair<std::string, size_t>> totals;  // activity -> index in totals_
    std::vector<Begun> stack;                            // B events not yet ended, innermost last
    std::optional<uint32_t> last_ready;                  // latest rank tick of the open negotiation
    double last_tick = 0, prev_tick = 0;                 // its time, and the tick's before it
    uint32_t ticks = 0;                                  // of the open negotiation
  };
  // Wall time under way, of any tensor: by HorovodPhase up to Collective,
  // then the pipeline (collective, queue, copy) and that or a negotiation.
  struct Unions {
    IntervalUnion phase[5];
    IntervalUnion comm, comm_negotiate;
    IntervalUnion fusion_in;  // MEMCPY_IN_FUSION_BUFFER: one run a fused operation
  };

  // Ranks named in ticks, at most: a hostile file cannot make up more.
  static constexpr size_t kMaxRanks = 65536;
  // Per rank that came last: the wall time the others waited for it.
  std::map<uint32_t, IntervalUnion> ready_wait_;

  bool opens(std::string_view text, bool after_bracket);
  // Reads the objects and brackets of one line; false when it had none.
  bool take_line(std::string_view text, bool opening);
  void event(const TraceEvent& e);
  void begin(uint64_t line);
  void close(bool terminated);
  size_t total_index(int64_t pid, Pid& p, std::string_view activity);
  void busy(HorovodPhase phase, double from, double to);
  void span(double from, double to);

  bool open_ = false;
  std::optional<uint64_t> bracket_;  // a lone `[` line that may open a timeline
  HorovodTimeline tl_;
  bool timed_ = false;  // tl_.first_us/last_us hold a value
  std::map<int64_t, Pid> pids_;
  std::vector<Total> totals_;
  Unions unions_;
  TraceEvent scratch_;
};

}  // namespace nd
