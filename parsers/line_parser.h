#pragma once
// Cuts lines into NCCL messages and the other lines the model reads (launcher
// binding reports, PyTorch's error lines), as ParsedLines. Reads nothing but
// its arguments, so any number of threads may parse at once.

#include <cstddef>
#include <string_view>

#include "parsers/line_splitter.h"
#include "parsers/parsed_lines.h"

namespace nd {

// Adds one line to `out`.
void parse_line(const Line& line, ParsedLines& out);

// parse_line() for the chunked reader, which has found from the line's byte
// marks that the " NCCL " at `marker` is its only one and that it holds no
// control byte (npos: it could not tell). A per-operation line of a known
// host is then only counted, without a second look.
void parse_marked_line(const Line& line, size_t marker, ParsedLines& out);

// Whether a line that opens a batch must wait for the batch before: one
// that holds "Last error:" may be that batch's `Last error:` message, or open
// one of its own depending on it, so only the merge can read it.
bool needs_line_by_line(std::string_view first_line);

// True when `text` holds " NCCL ": then it is no `Last error:` message.
bool holds_nccl_marker(std::string_view text);

// The host of a pdsh/clush prefix as NCCL would print it: cut at the first
// dot, unless it is an IPv4 address. Empty for a stand-in (`<host>`, `xxx`).
std::string_view launcher_host_name(std::string_view host);

}  // namespace nd
