#pragma once
// Turns the message of one NCCL line into a typed event. Dispatches on the
// first word before any regular expression runs.

#include <optional>
#include <string_view>
#include <variant>

#include "parsers/events.h"

namespace nd {

struct IgnoredEvent {};    // a known NCCL shape that the model does not use
struct UnknownEvent {};    // an INFO message of no known shape
struct MalformedEvent {    // a known shape with impossible numbers
  const char* what = "";
};
struct WarnEvent {
  std::string_view location;
  std::string_view message;
  std::optional<NetNoteEvent> note;  // what it says about the networks, if anything
};

using Event = std::variant<UnknownEvent, IgnoredEvent, MalformedEvent, ConnectionEvent,
                           CollNetEvent, RingListingEvent, GraphRingEvent, TreesEvent,
                           InitEvent, CommShapeEvent, VersionEvent, UsingNetworkEvent,
                           NetUsingEvent, CudaDriverEvent, EnvEvent, WarnEvent, AffinityEvent,
                           GraphPatternEvent, NetNoteEvent, BootstrapEvent, NvlsChannelsEvent,
                           NvlsConnectedEvent, ReturnTraceEvent>;

// Largest rank, channel and nranks the model accepts; larger numbers in a log
// are corrupt input, not a job.
inline constexpr uint32_t kMaxRanks = 1u << 22;
inline constexpr uint32_t kMaxChannels = 1024;

Event classify(const NcclHeader& header);
Event classify_message(std::string_view message);
// The same, for a caller that has asked is_per_operation(header.payload).
Event classify(const NcclHeader& header, bool per_operation);

// `transport/net.cc:687 -> 3` and its variants (see ReturnTraceEvent).
std::optional<ReturnTraceEvent> parse_return_trace(std::string_view message);

// Parses `Trees [0] 2/-1/-1->1->0 [1] ...` in its three generations.
bool parse_trees(std::string_view rest, TreesEvent& out);
// The same without the forward reader of the common shapes: for the tests
// that hold parse_trees() to it.
bool parse_trees_general(std::string_view rest, TreesEvent& out);

}  // namespace nd
