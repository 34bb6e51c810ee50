#pragma once
// The default `nvidia-smi` table, every driver layout from R331 to R610:
// one GpuSample per GPU box and one GpuProcess per row of the Processes box.
// Cells are found by their `|` borders, never by column offsets, so the
// widened boxes of R530+/R550+ read like the old ones; rows are told apart
// by their shapes (a bus id, "MiB / MiB", a process type), so a missing
// `MIG M.` row or GI/CI columns need no driver version.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parsers/gpu/gpu_records.h"

namespace nd {

class SmiTableReader : public BlockReader {
 public:
  explicit SmiTableReader(GpuRecords& out) : BlockReader(out) {}
  bool take(std::string_view payload, uint64_t line) override;
  bool in_block() const override { return open_; }
  void finish() override { close(); }

 private:
  enum class Section : uint8_t { Version, Gpus, Mig, Processes, Other };
  // The lines that count only when a header follows them: nvidia-smi's date
  // line, then the top frame. Neither opens the format alone, so neither is
  // claimed; the date still becomes the samples' time.
  enum class Before : uint8_t { Other, Date, DateFrame };

  bool take_table_line(std::string_view s, uint64_t line);
  bool opens(std::string_view s, Before before, uint64_t line);
  void open(Section section, Before before);
  void close();
  void push_pending();
  bool take_content(std::string_view s, uint64_t line);
  void take_version(std::string_view text);
  bool take_gpu_row(std::string_view inner, uint64_t line);
  bool take_process_row(std::string_view inner, uint64_t line);
  std::optional<GpuProcess> parse_process_row(std::string_view inner, uint64_t line) const;

  bool open_ = false;
  Section section_ = Section::Other;
  bool box_closed_ = false;   // the last table line was a `+---+` frame
  bool after_blank_ = false;  // and a blank line followed it
  bool rule_seen_ = false;    // the `|===|` rule of the current section
  uint32_t gap_ = 0;          // foreign lines since the last table line

  Before before_ = Before::Other;
  std::string date_;                  // the date line just read
  std::string time_, driver_, cuda_;  // of the open table
  std::optional<GpuSample> pending_;  // a GPU box whose second row is still to come
  std::optional<GpuProcess> lone_row_;  // a process row out of a table: a slice of a list if another follows
};

}  // namespace nd
