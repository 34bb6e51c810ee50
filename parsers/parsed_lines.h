#pragma once
// The NCCL messages of a run of lines, cut out and classified without
// touching any model, so that worker threads can do it; the model builder
// then merges them in line order. Views point into the lines (which must
// outlive the merge) or into `cleaned`.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/binding.h"
#include "parsers/envelope.h"
#include "parsers/framework_lines.h"
#include "parsers/line_classifier.h"
#include "src/util/name_set.h"

namespace nd {

// How many lines of each kind a run of lines held.
struct LineCounts {
  uint64_t lines = 0;
  uint64_t truncated_lines = 0;
  uint64_t nccl_lines = 0;  // NCCL headers: a line may hold several
  uint64_t info_lines = 0;
  uint64_t warn_lines = 0;
  uint64_t spliced_lines = 0;

  LineCounts& operator+=(const LineCounts& o);
  LineCounts& operator-=(const LineCounts& o);
};

struct ParsedLines {
  enum class Kind : uint8_t {
    Message,       // a header and its event: goes through the whole model
    Banner,        // header-less `NCCL version` banner; launcher_host = where it ran
    HostSighting,  // a per-operation line: only its host name matters
    Binding,       // a launcher's CPU binding report: bindings[index]
    Framework,     // a framework's error line: frameworks[index]
    LastErrorText, // the line after `Last error:`, whatever it holds: frameworks[index]
    Other,         // any other line, for the readers of tool outputs: others[index]
  };
  // Widest members first: a chunk in flight keeps one for each setup line.
  struct Item {
    uint64_t line = 0;     // Line::number as given to parse_line
    std::string_view raw;  // the line segment, for evidence
    NcclHeader header;
    Event event;
    // A header without a usable host (HostForm::Placeholder or Absent), and a
    // banner: the host a launcher prefix names, as NCCL would print it (see
    // launcher_host_name()); empty when none names a real one.
    std::string_view launcher_host;
    std::optional<uint32_t> launcher_rank;
    uint32_t index = 0;    // Binding, Framework, LastErrorText: into their vector
    Kind kind = Kind::Message;
    bool spliced = false;  // text glued before the header may have eaten into the host
    Launcher rank_from = Launcher::None;
  };
  std::vector<Item> items;
  std::vector<BindingLine> bindings;  // host cut as NCCL prints it
  std::vector<FrameworkLine> frameworks;
  // A line no NCCL reader took, without its launcher prefix: nvidia-smi,
  // nccl-tests or a Horovod timeline may have printed it.
  struct OtherLine {
    std::string_view payload;
    std::string_view launcher_host;  // as launcher_host_name() gives it
    // An Ansible header names the host of the lines after it, up to the next.
    bool opens_host_section = false;
  };
  std::vector<OtherLine> others;
  LineCounts counts;
  // The last line parsed opened a `Last error:` message.
  bool expect_last_error = false;
  // The first line's share, taken back when it turns out to be the message
  // of a `Last error:` line at the end of the batch before (it stays a line).
  std::string_view first_text;
  uint64_t first_number = 0;
  size_t first_items = 0;
  LineCounts first_share;  // lines and truncated_lines 0
  std::deque<std::string> cleaned;  // lines that had control bytes, cleaned
  // The bytes the views point into when they were read from a regular file,
  // and their offset there (-1: not from a file): a cited line is then kept
  // as its place in the file, not as a copy.
  std::string_view source;
  int64_t source_offset = -1;
  std::string scratch;
  // Hosts already named by an item, or interned before these lines were
  // parsed: their per-operation lines change nothing and are only counted.
  NameSet hosts;
  std::shared_ptr<const NameSet> known_hosts;

  void clear();
};

}  // namespace nd
