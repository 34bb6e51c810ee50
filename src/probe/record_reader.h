#pragma once
// Reads the probe records of a cluster from launcher output: `srun -l`,
// `mpirun --tag-output` and friends interleave lines of different nodes and
// prefix them; srun splits lines longer than 1 KiB into several labelled
// lines. Records are reassembled per launcher rank, then decoded.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/probe/node_snapshot.h"

namespace nd {

struct ProbeRecord {
  NodeSnapshot node;
  size_t line = 0;  // where the record started (1-based)
  std::optional<uint32_t> launcher_rank;  // from the line prefix, if any
};

struct RecordProblem {
  size_t line = 0;
  std::string error;    // "truncated record (no closing brace before end of input)"
  std::string excerpt;  // the start of the offending text, printable
};

struct RecordSet {
  std::vector<ProbeRecord> records;
  std::vector<RecordProblem> problems;
  size_t lines = 0;
};

RecordSet read_probe_records(std::string_view input);

// A record larger than this is not ours (a DGX record is ~20 KiB).
inline constexpr size_t kMaxRecordBytes = 16u << 20;

// One record put back together from the pieces of its lines. It counts
// braces outside JSON strings, so it knows when the record closes without
// parsing it on every line.
class RecordPieces {
 public:
  explicit RecordPieces(size_t line = 0) : line_(line) {}
  // Appends the part of `piece` that belongs to the record; true once the
  // record has closed (what follows in `piece` is not the record's).
  bool add(std::string_view piece);
  size_t line() const { return line_; }  // where the record started
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  size_t line_ = 0;
  int depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
};

// Whether a line's payload opens a record the way `probe --json` prints it:
// `{"schema":"nccl-doctor.probe/`. A pretty-printed record does not.
bool opens_probe_record(std::string_view payload);
// Decodes one whole record; nullopt with `error` set ("not valid JSON",
// "schema 'foo/2' is not nccl-doctor.probe/1").
std::optional<NodeSnapshot> decode_probe_record(std::string_view text, std::string& error);
// The printable start of a record, for a problem's excerpt.
std::string record_excerpt(std::string_view text);

}  // namespace nd
