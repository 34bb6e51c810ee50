#pragma once
// Reads the output of nccl-tests (all_reduce_perf and the other binaries),
// v1.0 to v2.19: the `#` header, the rank lines, the results table mapped
// from its own column names, the footer and the failure lines. Several runs
// in one stream make several NcclTestsRun records: a header line that comes
// again starts the next. Rows are read under a column header; without one
// (a paste that starts inside the table) only in a layout nccl-tests prints,
// with a data type it names, so that a line of numbers elsewhere is never
// taken for one. The op comes from `Collective
// test starting:`, else from a command line naming an `<op>_perf` binary
// before the header.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/gpu/gpu_records.h"

namespace nd {

class NcclTestsReader final : public BlockReader {
 public:
  explicit NcclTestsReader(GpuRecords& out) : BlockReader(out) {}

  bool take(std::string_view payload, uint64_t line) override;
  bool in_block() const override { return state_ != State::Idle; }
  void finish() override;

 private:
  // What a column of the results table holds, from its header name.
  enum class Col : uint8_t { Size, Count, Type, Redop, Root, Time, AlgBw, BusBw, Wrong, Error, Skip, Stamp };
  struct Column {
    Col col = Col::Skip;
    uint8_t group = 0;  // 0 out-of-place, 1 in-place
  };
  enum class State : uint8_t { Idle, Header, Table, Footer };
  // Header lines in the order nccl-tests prints them: one that comes at or
  // before what the current run has already shown starts the next run.
  enum Step : uint8_t {
    kVersion,
    kStarting,
    kNThread,
    kUsing,
    kRank,
    kGroups,
    kNames,
    kUnits,
  };

  bool take_comment(std::string_view text, uint64_t line);
  bool take_plain(std::string_view text, uint64_t line);
  bool take_failure(std::string_view text, uint64_t line);
  bool take_row(std::string_view text, uint64_t line);
  bool take_bare_row(std::string_view text, uint64_t line);
  std::optional<NcclTestsRow> parse_row(std::string_view text, uint64_t line) const;
  bool take_names(std::string_view text, uint64_t line);
  bool take_footer(std::string_view text);
  void note_command(std::string_view text);
  // Starts a run or goes on with the current one's header at `step`.
  NcclTestsRun& header(Step step, uint64_t line);
  NcclTestsRun& start_run(uint64_t line);
  NcclTestsRun& run() { return out_.nccl_tests[*run_]; }

  State state_ = State::Idle;
  Step step_ = kVersion;
  std::optional<size_t> run_;  // index of the current (or last) run in out_.nccl_tests
  std::vector<Column> columns_;
  size_t min_tokens_ = 0;      // a row has at least this many fields
  double time_scale_ = 1;      // v1 printed milliseconds
  std::string pending_op_;     // from a command line seen before the header
  // What that command line starts: processes, and ranks in each (-t x -g).
  std::optional<uint32_t> pending_processes_, pending_per_process_;
  std::optional<uint32_t> run_processes_;  // the current run's
  bool continues_ = false;     // the last line not taken ended with `\`
  bool inherited_op_ = false;  // the current run took the run before's op; its nThread line decides
  std::string command_op_;     // the last command line's, while its output goes on
  int footer_noise_ = 0;       // unclaimed lines since the footer's last one
};

}  // namespace nd
