#pragma once
// `nvidia-smi dmon`: one row per GPU per interval under a two-line header
// (names, then units) that is printed again every so often. The header
// decides the columns: `-s` picks the metrics, `-o D/T/DT` puts Date and
// Time before the GPU index, and the names changed across drivers (`temp`,
// then `gtemp mtemp`; `jpg ofa`, `ccpm` came later).

#include <cstdint>
#include <string_view>
#include <vector>

#include "parsers/gpu/gpu_records.h"

namespace nd {

class SmiDmonReader final : public BlockReader {
 public:
  using BlockReader::BlockReader;

  bool take(std::string_view payload, uint64_t line) override;
  // dmon runs beside the job and its rows come between the job's own lines
  // until the stream ends: once a header is read, every line is offered.
  bool in_block() const override { return !columns_.empty(); }

  // What a column feeds. Public for the table in the .cpp.
  enum class Column : uint8_t {
    Other, Date, Time, Index, Power, Temp, Util, MemBw, SmClock, MemUsed, PowerViolation, ThermalViolation
  };

 private:
  bool take_header(std::string_view s, std::vector<Column>& pending);
  bool take_row(std::string_view s, uint64_t line);
  void adopt(std::vector<Column> columns);

  std::vector<Column> columns_;  // from the last names line
  bool has_date_ = false, has_time_ = false;
  std::vector<Column> pending_;  // a names line of unknown columns, until the units line
};

}  // namespace nd
