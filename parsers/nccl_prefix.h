#pragma once
// Finds the `host:pid:tid [dev] [loc] NCCL LEVEL ` header anywhere in a line,
// so launcher leftovers and spliced lines still yield their NCCL message.

#include <cstddef>
#include <string_view>

#include "parsers/envelope.h"
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
// A line without any full header may still be one that lost its
// `host:pid:tid` (HostForm::Absent): `[0] NCCL INFO msg` or `NCCL INFO msg`
// at the very start of `line`, after an optional time stamp (the envelope
// strippers have removed launcher tags, quote marks and indentation).
HeaderScan scan_nccl_headers(std::string_view line);

// The header of a line that starts with it, read forward: `host:pid:tid
// [dev] NCCL LEVEL ` with the " NCCL " at `marker` and a plain host (a
// letter, then letters, digits, '-' and '_'). When `marker` is the line's
// first " NCCL " and none follows the level word, this is the one header
// scan_nccl_headers() finds, and strip_envelope() takes nothing off the
// line. False says nothing: ask scan_nccl_headers().
bool leading_nccl_header(std::string_view line, size_t marker, NcclHeader& out);

// The same behind mpirun --tag-output's usual tag (`[1,5]<stdout>:`, see
// plain_ompi_tag_length()), for a header whose host starts with a lower-case
// letter: strip_envelope() takes the tag and nothing more, since no other
// prefix it knows starts so and goes on with `:pid`. `env` gets what
// strip_envelope() gives; `out` is read from env.payload, as
// scan_nccl_headers() would read it. False says nothing, as above.
bool tagged_leading_nccl_header(std::string_view line, size_t marker, Envelope& env, NcclHeader& out);
// The same with the tag's length known: plain_ompi_tag_length(line).
bool nccl_header_after_tag(std::string_view line, size_t tag, size_t marker, Envelope& env, NcclHeader& out);

// True for a host that stands in for one (`<cluster_name>`, `[hostname]`,
// `xxx`, `node-X`, `hostname`): anonymised pastes, whose lines cannot tell
// hosts apart. A bracketed name with a digit (`<node1>`) is a name.
bool is_placeholder_host(std::string_view host);

// A header-less banner: `NCCL version 2.4.8+cuda10.0` (2.4-2.21 raw printf,
// 2.22+ VERSION level). Returns the text after "NCCL version ".
bool is_raw_banner(std::string_view payload, std::string_view& rest);

}  // namespace nd
