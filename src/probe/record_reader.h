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

}  // namespace nd
