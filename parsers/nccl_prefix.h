#pragma once
// Finds the `host:pid:tid [dev] [loc] NCCL LEVEL ` header anywhere in a line,
// so launcher leftovers and spliced lines still yield their NCCL message.

#include <cstddef>
#include <string_view>

#include "parsers/events.h"

namespace nd {

// Up to this many headers are recovered from one spliced line.
inline constexpr size_t kMaxHeadersPerLine = 4;

struct HeaderScan {
  NcclHeader headers[kMaxHeadersPerLine];
  size_t count = 0;
  // True when a header's message was cut short by a following header.
  bool spliced = false;
};

// Scans `line` for NCCL headers. When a second header starts inside the first
// message, the first payload ends where the second header's host begins.
HeaderScan scan_nccl_headers(std::string_view line);

// A header-less banner: `NCCL version 2.4.8+cuda10.0` (2.4-2.21 raw printf,
// 2.22+ VERSION level). Returns the text after "NCCL version ".
bool is_raw_banner(std::string_view payload, std::string_view& rest);

}  // namespace nd
