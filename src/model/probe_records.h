#pragma once
// Probe records among check's inputs: `nccl-doctor probe --json` prints one
// line of JSON per node, often gathered by a launcher (`srun -l`, `mpirun
// --tag-output`) that prefixes it and, for srun, cuts it into labelled
// pieces of 1 KiB. A record is put together per input, launcher rank and
// host from the lines no NCCL reader took, decoded, and kept in the model
// (JobModel::probe_records) with the line it starts on.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "parsers/parsed_lines.h"
#include "src/model/job_model.h"
#include "src/probe/record_reader.h"

namespace nd {

class ProbeRecordsBuilder {
 public:
  explicit ProbeRecordsBuilder(JobModel& model) : model_(model) {}
  // Takes the line when it opens a record or continues one left open by
  // the same launcher rank; false: the line is not a record's.
  bool add(LineRef ref, const ParsedLines::Item& item, const ParsedLines::OtherLine& line);
  // Names the host of the records of `file` that name none (HOST=FILE).
  void set_file_host(uint32_t file, std::string host) { file_hosts_[file] = std::move(host); }
  // Records still open were cut short.
  void finish();

  // All the open records together may hold this much text.
  static constexpr size_t kMaxOpenBytes = 64u << 20;

 private:
  struct Open {
    RecordPieces pieces;
    std::string launcher_host;
  };
  // file, launcher rank (-1: none), launcher host (without a rank)
  using Key = std::tuple<uint32_t, int64_t, std::string>;

  void close(const Key& key, Open& open);
  void problem(LineRef ref, std::string error, std::string_view text);

  JobModel& model_;
  std::map<Key, Open> open_;
  size_t open_bytes_ = 0;
  std::map<uint32_t, std::string> file_hosts_;
  std::set<std::string> hosts_;  // hosts with a record kept
};

}  // namespace nd
