#pragma once
// Feeds one input to a ModelBuilder as fast as the machine allows: large
// reads, lines cut and classified on every core in chunks split at line
// boundaries, and the chunks merged in line order, so the model is exactly
// the one that line-by-line add_line() builds. Memory stays bounded by the
// chunks in flight, whatever the length of the input.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "parsers/line_splitter.h"
#include "src/model/model_builder.h"

namespace nd {

struct FeedOptions {
  size_t threads = 0;             // 0: one per core (at most kMaxThreads)
  size_t chunk = 1 << 20;         // bytes of lines per chunk, at most: fewer with many threads
  size_t max_line = kDefaultMaxLine;  // longer lines are cut (see parsers/line_splitter.h)
  // Sees every byte as read() returns it, in order, before its lines are
  // parsed (live mode copies the input here). With a tap, a regular file is
  // read in order too, as a stream.
  std::function<void(std::string_view)> tap;
  // Called by the merging thread after each chunk is in the builder's model,
  // in order; `more` says whether more input is already waiting (live mode
  // judges the model here, and may leave it for later when more is coming).
  std::function<void(bool more)> after_merge;
  // A stream (not a regular file) from which no byte arrives for `silence`
  // calls on_silence, with the last line read and how long it has been quiet,
  // once per pause, when every line read so far is in the model and nothing
  // else touches it. 0: never.
  std::chrono::milliseconds silence{0};
  std::function<void(LineRef last, std::chrono::steady_clock::duration quiet)> on_silence;

  // Whether chunks of setup lines (init, connection, graph lines: one
  // parsed item per line or more) are parsed by the merging thread alone
  // while they last, the other threads waiting. Their parsed items are
  // about twice their bytes and go straight into the model: where the cores
  // share no cache, moving them from core to core costs more CPU than a
  // second core saves (a third less CPU for 6 % more wall time on a 2-core
  // virtual machine). Unset: so where cpus_share_cache() says no.
  std::optional<bool> setup_on_one_core;
  // Called by a helper after each chunk it parsed ahead of its turn, with
  // whether its counts were kept (tests order their threads with it); by
  // several helpers at once, and while a merge runs.
  std::function<void(bool counts_kept)> after_parse_ahead;

  static constexpr size_t kMaxThreads = 8;
};

struct FeedResult {
  int error = 0;        // errno of a failed read, 0 when none
  uint64_t lines = 0;
  // Chunks of per-operation lines parsed ahead of their turn while the
  // merging thread read setup lines alone (FeedOptions::setup_on_one_core).
  uint64_t chunks_counted_ahead = 0;
};

// Reads `fd` to its end. A regular file is read with pread() by every worker
// at once; anything else (a pipe, a terminal) is read by one worker at a
// time, handing over what has arrived whenever the writer pauses, so live
// output is seen promptly. after_merge, if any, is called from whichever
// thread merges, one call at a time, in line order.
FeedResult feed_lines(int fd, uint32_t file, ModelBuilder& builder, const FeedOptions& options = {});

// An open input and its file in the builder.
struct FeedInput {
  int fd = -1;
  uint32_t file = 0;
  // Nonzero: `fd` is a regular file of this many bytes that the caller has
  // just opened (so it stands at its first byte) and examined: the feeder
  // asks the system nothing more about it. Zero: it asks where the
  // descriptor stands and what it is.
  uint64_t opened_size = 0;
};

// Reads several inputs in their order, as feed_lines() one after the other
// would, with a result for each. Regular files without a tap or live
// callbacks are read as one stream of chunks, so that many small files (one
// per rank) keep every core busy; a read error ends only its own file.
std::vector<FeedResult> feed_files(std::span<const FeedInput> inputs, ModelBuilder& builder,
                                   const FeedOptions& options = {});

}  // namespace nd
