#pragma once
// Reads the lines that say which networks NCCL could set up, and why not
// (events.h NetNote): the network-plugin lines of every generation, verbs
// missing, `NET/IB : No device found.`, aws-ofi-nccl's provider, and the WARNs
// that show IB at work. The level does not matter: current NCCL prints the
// usual reasons for a socket fallback at INFO, old NCCL printed some as WARN.

#include <optional>
#include <string_view>

#include "parsers/events.h"

namespace nd {

// `message` is the text after `NCCL INFO ` or `NCCL WARN `; `warn` says which.
// Completion errors and verbs calls count only as WARNs; `No IP interface
// found` at either level. Returns nothing for every other message, after a few byte compares.
std::optional<NetNoteEvent> parse_net_note(std::string_view message, bool warn);

}  // namespace nd
