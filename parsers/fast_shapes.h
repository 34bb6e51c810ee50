#pragma once
// Hand-written matchers for the shapes that make up almost all of a large
// log: the per-operation COLL/TUNING lines (rejected on a few bytes), the
// connection lines (hundreds of thousands at 8192 ranks x 32 channels) and
// the init lines (one per rank and communicator). The connection and init
// matchers are byte-for-byte equivalents of their RE2 rows
// (PatternKind::Connection, PatternKind::Init); differential tests and the
// line fuzzer hold them together.

#include <cstdint>
#include <optional>
#include <string_view>

namespace nd {

// Finds " NCCL " in `s` at or after `from`; npos when absent. Hops on 'N',
// which is rare in log text, instead of on every space.
size_t find_nccl_word(std::string_view s, size_t from = 0);

// True for a per-operation message, which carries nothing about the job's
// shape and can be a million lines per minute:
//   COLL    `AllReduce: opCount 3f sendbuff ...`       (every version)
//   TUNING  `4194304 Bytes -> Algo 1 proto 2 time ...`  (2.20-2.22)
//           `AllReduce: 4194304 Bytes -> Algo ...`     (2.23+)
bool is_per_operation(std::string_view message);

// The host of a per-operation INFO line whose " NCCL " is at `marker`, from
// its `host:pid:tid [dev]` header read backwards from the marker (a launcher
// prefix may come before it); nullopt for any other line. A view into `text`.
std::optional<std::string_view> per_operation_host(std::string_view text, size_t marker);
// The same, telling what is_per_operation() said of the message, when the
// line is INFO and it was asked.
std::optional<std::string_view> per_operation_host(std::string_view text, size_t marker,
                                                   std::optional<bool>& per_operation);

// The same, faster, for the usual COLL line that starts with its header
// (`host:pid:tid [dev] NCCL INFO Name: opCount ...`, header and name within
// the first 64 bytes of a line of at least 64): the host's length, and then
// per_operation_host() finds that host at the line's start. 0 says nothing:
// ask per_operation_host(). One pass of 64-byte class masks (AVX2 or SSE2).
size_t leading_per_operation_host(std::string_view text, size_t marker);

// Open MPI's --tag-output tag in its usual form, `[1,5]<stdout>:` or
// `<stderr>:` with a space or none after it: its length, as
// ompi_tag_length() gives it. 0 says nothing: ask ompi_tag_length(). In a
// tagged log every line has one, and the general reader took a tenth of the
// time of `check`.
size_t plain_ompi_tag_length(std::string_view line);

// The rank of a line whose tag plain_ompi_tag_length() took (at most 9
// digits: it fits).
uint32_t plain_ompi_tag_rank(std::string_view line);

// True when `s` holds an ESC, NUL or CR byte: the rare lines that need
// strip_control() or a split at carriage returns.
bool has_control_or_cr(std::string_view s);

// The capture groups of the connection shape, in the pattern's order. An
// absent optional group is an empty view.
struct ConnectionCaptures {
  std::string_view keyword, channel, conn, sender, sender_bracket, receiver, receiver_bracket, direction,
      transport;
  bool operator==(const ConnectionCaptures&) const = default;
};

// `Ring|Channel NN[/k] : a[x] -> b[y] [send|receive] via TRANSPORT`, the
// whole message (FullMatch semantics, Latin-1).
bool match_connection(std::string_view message, ConnectionCaptures& out);

// The same through RE2, for the differential test.
bool match_connection_re2(std::string_view message, ConnectionCaptures& out);

// The capture groups of the init shape (PatternKind::Init), in its order.
struct InitCaptures {
  std::string_view api, comm, rank, nranks, cuda_dev, nvml_dev, bus_id, comm_id, phase;
  bool operator==(const InitCaptures&) const = default;
};

// `[api ]comm PTR rank R nranks N cudaDev D [optional fields] - Init
// START|COMPLETE` at the start of the message (PartialMatch semantics of the
// RE2 row, backtracking included): one line per rank and communicator.
bool match_init(std::string_view message, InitCaptures& out);

// The same through RE2, for the differential test.
bool match_init_re2(std::string_view message, InitCaptures& out);

// `NET/<name> ?: Using<list>`, the whole message (PatternKind::NetUsing,
// FullMatch semantics): one line per process.
bool match_net_using(std::string_view message, std::string_view& name, std::string_view& list);

// `Using network <name>`, trailing whitespace trimmed (PatternKind::UsingNetwork).
bool match_using_network(std::string_view message, std::string_view& name);

// The shapes that almost every log holds a few of. Compiling their RE2 rows
// was a fifth of the instructions of checking a short log; each matcher
// gives its row's capture groups (an absent optional group is a null view),
// held to it by differential tests and the line fuzzer.

// `NCCL version 2.18.3[suffix][+cuda12.2]` at the start (PatternKind::Version,
// PartialMatch): the version and the CUDA version, null when absent.
bool match_version(std::string_view message, std::string_view& version, std::string_view& cuda);

// `cudaDriverVersion 12040` at the start (PatternKind::CudaDriver, PartialMatch).
bool match_cuda_driver(std::string_view message, std::string_view& version);

// `comm PTR rank R nRanks N nNodes M localRanks L localRank K` at the start
// (PatternKind::CommShape, PartialMatch).
struct CommShapeCaptures {
  std::string_view comm, rank, nranks, nnodes, local_ranks, local_rank;
};
bool match_comm_shape(std::string_view message, CommShapeCaptures& out);

// `Ring NN : prev -> me -> next`, the whole message (PatternKind::GraphRing,
// FullMatch).
struct GraphRingCaptures {
  std::string_view channel, prev, me, next;
};
bool match_graph_ring(std::string_view message, GraphRingCaptures& out);

// `Channel|Ring NN[/k] :` and the ranks, up to a `...` that cut them, the
// whole message (PatternKind::RingListing, FullMatch). `ranks` always takes
// part: when empty, it sits just after the colon.
struct RingListingCaptures {
  std::string_view channel, count, ranks, dots;
};
bool match_ring_listing(std::string_view message, RingListingCaptures& out);

}  // namespace nd
