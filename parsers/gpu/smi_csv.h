#pragma once
// `nvidia-smi --query-gpu=FIELDS --format=csv[,noheader][,nounits]` and
// `--query-compute-apps=FIELDS`, once or looped (`-l N`, `-lms N`, `watch`):
// one GpuSample per --query-gpu row, one GpuProcess per --query-compute-apps
// row. The columns come from the header (`index, name, memory.used [MiB]`),
// recognised by nvidia-smi's field names, or, for `noheader` or a paste
// that dropped the header, from the command line shown just before the
// rows; rows without either are not claimed, whatever they look like.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/gpu/gpu_records.h"

namespace nd {

class SmiCsvReader : public BlockReader {
 public:
  explicit SmiCsvReader(GpuRecords& out) : BlockReader(out) {}
  bool take(std::string_view payload, uint64_t line) override;
  bool in_block() const override { return !columns_.empty() || cmd_ttl_ > 0; }
  void finish() override { release_unshown(); }

  // What a column holds; `Other` for the fields we do not keep.
  enum class Field : uint8_t {
    Other, Index, Name, BusId, Uuid, UtilGpu, UtilMem, MemUsed, MemTotal, MemFree,
    PowerDraw, PowerDrawInstant, PowerDrawAverage, PowerLimit, EnforcedPowerLimit,
    Temp, SmClock, MaxSmClock, PState, Timestamp, DriverVersion,
    Pid, ProcessName, UsedMemory,
  };
  struct Column {
    Field field = Field::Other;
    double scale = 1;  // from the header's unit to MiB for memory columns
  };
  // What the last command line shown asked for besides its columns.
  struct Selection {
    bool loop = false;            // -l / -lms / --loop[-ms]
    std::optional<uint32_t> id;   // -i N / --id=N, one GPU by index
    bool ids = false;             // -i naming several GPUs, or by bus id / UUID
    bool shown = false;           // a command line said so; else nothing is known
  };

 private:
  bool take_row(std::string_view s, uint64_t line, const std::vector<Column>& columns, bool apps, bool adjacent);
  void set_positions();
  void place(std::vector<GpuSample>& samples, bool first_of_run);
  void place_unshown(std::vector<GpuSample>& samples, bool first_of_run);
  // The rows of a query read without command line or timestamp, held back
  // until the query ends: as placed when it ends within kMaxUnshownPositions
  // rows, else without an index (a loop whose queries cannot be told).
  void release_unshown();
  void give_up_unshown();

  // The columns of the header, or of a `noheader` command line once a row
  // fitted them; empty before either.
  std::vector<Column> columns_;
  bool apps_ = false;      // --query-compute-apps, not --query-gpu
  bool adjacent_ = false;  // the last line that was not blank was ours
  // A `noheader` command line just read: its columns, for rows that follow
  // within cmd_ttl_ lines.
  std::vector<Column> cmd_columns_;
  bool cmd_apps_ = false;
  uint32_t cmd_ttl_ = 0;
  Selection selection_;
  // Rows without a GPU identity: the index is the row's place in its query.
  bool positional_ = false;
  bool timed_ = false;  // a timestamp column tells one query from the next
  // Neither a command line nor a timestamp: one query read as it stands
  // (what a paste of `--query-gpu` shows), its rows at most
  // kMaxUnshownPositions, a row that names the first row's GPU model after
  // another model beginning the next query.
  bool unshown_ = false;
  std::string first_name_;
  bool other_name_ = false;
  std::vector<GpuSample> unshown_rows_;
  uint32_t next_position_ = 0;
  std::optional<double> query_time_;  // the first row's of the current query, seconds of the day
  std::string query_time_text_;       // the same when it does not read as a time
  // More rows in one query are a loop whose queries could not be told apart.
  static constexpr uint32_t kMaxPositions = 64;
  // A host of GPUs pasted as one query has at most this many (HGX: 8): more
  // rows after a bare header, whose models do not tell the queries apart,
  // are a loop. A loop of this many rows or fewer is misread as one query.
  static constexpr uint32_t kMaxUnshownPositions = 8;
  // Rows of one query are printed within this many seconds of each other.
  static constexpr double kQueryGap = 0.5;
};

}  // namespace nd
