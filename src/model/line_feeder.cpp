#include "src/model/line_feeder.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <poll.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "parsers/byte_marks.h"
#include "parsers/line_parser.h"
#include "src/util/parallel.h"

namespace nd {
namespace {

// One chunk of input on its way through: its bytes, then its parsed lines.
struct Slot {
  // Not zeroed: zeroing touched every page of every slot however short the
  // input, a hundred page faults for a 16 KB log (costly in a VM).
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;
  size_t begin = 0;  // the chunk's lines are buffer[begin, end)
  size_t end = 0;
  uint64_t id = 0;      // in the order of all inputs' chunks
  size_t input = 0;     // which input (a stream has one)
  uint64_t chunk = 0;   // the chunk's number within its input
  uint64_t lines = 0;
  bool line_by_line = false;  // parsed at merge time, see parse_chunk
  bool ahead = false;    // parsed ahead of its turn, for its counts (see Feeder::take)
  bool counted = false;  // its counts were taken ahead: nothing to read or parse
  int64_t file_offset = -1;   // of buffer[0], for a regular file
  ParsedLines parsed;
  ByteMarks marks;
};

// The slot's lines, buffer[begin, end).
std::string_view lines_of(const Slot& slot) {
  return std::string_view(slot.buffer.get() + slot.begin, slot.end - slot.begin);
}

// The first " NCCL " of line [from, to) when it is the line's only one and
// the line holds no control byte: what parse_marked_line() needs. npos
// otherwise, and the line takes the full path.
size_t sole_marker(const ByteMarks& marks, const char* base, size_t from, size_t to) {
  if (marks.has_control(from, to)) return ByteMarks::npos;
  auto is_marker = [&](size_t n) { return base[n - 1] == ' ' && to - n >= 5 && std::memcmp(base + n, "NCCL ", 5) == 0; };
  size_t n = marks.next_capital_n(from + 1, to);
  while (n != ByteMarks::npos && !is_marker(n)) n = marks.next_capital_n(n + 1, to);
  if (n == ByteMarks::npos) return n;
  for (size_t k = marks.next_capital_n(n + 1, to); k != ByteMarks::npos; k = marks.next_capital_n(k + 1, to)) {
    if (is_marker(k)) return ByteMarks::npos;
  }
  return n - 1 - from;
}

// `h:1:1 [0] NCCL INFO ` and a word.
constexpr size_t kShortestItemLine = 24;

void parse_chunk(Slot& slot, size_t max_line) {
  ParsedLines& out = slot.parsed;
  out.clear();
  slot.line_by_line = false;
  // One vectorised pass finds the newlines and what the bulk path must know
  // of the lines; make_line() cuts them as split_lines() does.
  const char* base = slot.buffer.get() + slot.begin;
  const size_t size = slot.end - slot.begin;
  ByteMarks& marks = slot.marks;
  marks.scan(base, size);
  uint64_t number = 0;
  for (size_t start = 0; start < size;) {
    if (out.items.size() == out.items.capacity()) {
      // A setup line takes an item: room for every line left at once, not
      // by doubling, which could leave twice the room a chunk needs. No
      // setup line is shorter than kShortestItemLine: a chunk of short
      // lines grows as it needs.
      size_t more = std::min(marks.newlines(start), (size - start) / kShortestItemLine) + 1;
      out.items.reserve(out.items.size() + more + more / 8);
    }
    size_t from = start;
    size_t nl = marks.next_newline(start);
    Line line = make_line(base + start, nl - start, max_line, ++number);
    start = nl + 1;
    if (number == 1) {
      if (needs_line_by_line(line.text)) {
        // Whether this line is the message of a `Last error:` before it is
        // only known in order: the merge reads the chunk line by line.
        slot.line_by_line = true;
        break;
      }
      parse_line(line, out);
      continue;
    }
    parse_marked_line(line, sole_marker(marks, base, from, nl), out);
  }
  slot.lines = slot.line_by_line ? split_lines(lines_of(slot), max_line, [](const Line&) {}) : out.counts.lines;
}

ssize_t read_retry(int fd, char* buf, size_t n) {
  while (true) {
    ssize_t r = ::read(fd, buf, n);
    if (r >= 0 || errno != EINTR) return r;
  }
}

ssize_t pread_retry(int fd, char* buf, size_t n, off_t at) {
  while (true) {
    ssize_t r = ::pread(fd, buf, n, at);
    if (r >= 0 || errno != EINTR) return r;
  }
}

// A stream's chunk goes out after kPause without a byte, or kMaxHold after
// its first whole line (see read_stream): live findings wait no longer.
constexpr std::chrono::milliseconds kPause{2};
constexpr std::chrono::milliseconds kMaxHold{20};

// Each chunk costs a hand-over between threads (a wake-up, tens of
// microseconds in a VM): 512 KB chunks on two cores took 5 % less CPU than
// 256 KB ones, for 5 MB more memory at the peak of a large job's setup.
constexpr size_t kChunksInFlight = size_t{2} << 20;
constexpr size_t kMinChunk = size_t{128} << 10;

// Chunks parsed ahead of their turn wait as counts, at most this many (a
// hundred bytes each), so memory stays bounded however long the log.
constexpr size_t kMaxCountedAhead = 4096;
// After this many chunks in a row parsed ahead that held more than counts,
// the helpers stop parsing ahead: the log's end is not per-operation lines.
constexpr unsigned kAheadMisses = 2;

// A regular file is read by offset, unless a tap must see its bytes in
// order. Alone, an empty one is read as a stream (a log just created may
// still grow); among several it has no chunks. One the caller opened with
// its size is one already.
bool read_by_offset(const FeedInput& in, const FeedOptions& options, bool alone) {
  if (options.tap) return false;
  if (in.opened_size > 0) return true;
  struct stat st {};
  return ::fstat(in.fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_size > 0 || !alone);
}

class Feeder {
 public:
  // Either one input of any kind, or regular files only (read_by_offset).
  Feeder(std::span<const FeedInput> inputs, ModelBuilder& builder, const FeedOptions& options)
      : builder_(builder), options_(options), results_(inputs.size()) {
    threads_ = options.threads ? std::min(options.threads, FeedOptions::kMaxThreads)
                               : worker_threads(FeedOptions::kMaxThreads);
    // A chunk for each worker, and two parsed ones waiting for the merge.
    slots_total_ = threads_ + 2;
    // The chunks in flight, with their parsed lines (about three times their
    // bytes for init lines), share a budget however many cores there are:
    // memory follows the job, not the machine (8 threads: 10 x 205 KB).
    // Chunks stay at least kMinChunk.
    chunk_ = std::min(options.chunk, std::max(kMinChunk, kChunksInFlight / slots_total_));
    // A chunk holds up to `chunk_` bytes of line starts plus the head of a
    // line that runs past them.
    capacity_ = chunk_ + 2 * overlong_head(options.max_line);
    regular_ = inputs.size() > 1 || read_by_offset(inputs[0], options, /*alone=*/true);
    for (const FeedInput& in : inputs) {
      Input& input = inputs_.emplace_back();
      input.fd = in.fd;
      input.file = in.file;
      input.first_chunk = chunks_;
      struct stat st {};
      if (!regular_) {
        if (::fstat(in.fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
          // Fewer, larger reads when a fast writer fills the pipe; best effort.
          (void)::fcntl(in.fd, F_SETPIPE_SZ, 1 << 20);
        }
        continue;
      }
      off_t at = 0;
      off_t size = static_cast<off_t>(in.opened_size);
      if (size == 0) {
        at = ::lseek(in.fd, 0, SEEK_CUR);
        if (::fstat(in.fd, &st) != 0 || at < 0 || at >= st.st_size) continue;
        size = st.st_size;
      }
      input.base = at;
      input.end = size;
      input.chunks = (static_cast<uint64_t>(size - at) + chunk_ - 1) / chunk_;
      chunks_ += input.chunks;
      builder_.add_source(input.file, input.fd);
    }
    done_ = regular_ && chunks_ == 0;
    ahead_next_ = chunks_ > 0 ? chunks_ - 1 : 0;
  }

  std::vector<FeedResult> run() {
    std::vector<std::thread> helpers;
    bool spawned = false;
    while (true) {
      Slot* slot = take();
      if (!slot) break;
      if (!spawned) {
        // Only inputs of several chunks are worth more threads: starting one
        // costs more than parsing a chunk (per-rank files are often small).
        spawned = true;
        std::unique_lock lk(mutex_);
        bool more = !done_ && (!regular_ || chunks_ - next_id_ > 3);
        lk.unlock();
        if (more && threads_ > 1) {
          setup_on_one_core_ = options_.setup_on_one_core ? *options_.setup_on_one_core : !cpus_share_cache();
        }
        for (size_t i = 1; more && i < threads_; ++i) helpers.emplace_back([this] { work(); });
      }
      process(slot, /*helper=*/false);
    }
    for (auto& t : helpers) t.join();
    results_[merge_input_].lines = lines_;
    if (!regular_) results_[0].error = error_;
    for (size_t i = 0; regular_ && i < inputs_.size(); ++i) results_[i].error = inputs_[i].error;
    return std::move(results_);
  }

 private:
  void work() {
    while (Slot* slot = take(/*helper=*/true)) process(slot, /*helper=*/true);
  }

  void process(Slot* slot, bool helper) {
    if (slot->ahead) return parse_ahead(slot);
    if (!slot->counted) {
      if (regular_) read_regular(*slot);
      parse_chunk(*slot, options_.max_line);
      if (regular_) {
        slot->parsed.source = std::string_view(slot->buffer.get(), slot->end);
        slot->parsed.source_offset = slot->file_offset;
      }
    }
    publish(slot, helper);
  }

  // What a chunk that left only counts keeps while it waits for its turn.
  struct Counted {
    LineCounts counts;
    uint64_t lines = 0;
    LineCounts first_share;
    uint64_t first_number = 0;
  };

  // Whether a waiting helper may parse a chunk ahead: the file is read by
  // offset, the hosts named so far are all in known_hosts_ (else their
  // per-operation lines leave items, and the chunk is parsed for nothing),
  // the last chunks parsed ahead left counts, and the next one is well clear
  // of the chunks taken in order. Under mutex_.
  bool can_parse_ahead() const {
    return regular_ && hosts_settled_ && ahead_misses_ < kAheadMisses && counted_.size() < kMaxCountedAhead &&
           ahead_next_ >= next_id_ + slots_total_;
  }

  // A chunk that leaves only counts, and whose first line holds NCCL's
  // marker (so it cannot be the message of a `Last error:` before it), keeps
  // its counts; any other is read again in its turn.
  void parse_ahead(Slot* slot) {
    bool read = read_regular(*slot, /*ahead=*/true);
    if (read) parse_chunk(*slot, options_.max_line);
    // Every line that changes the model beyond its counts leaves an item.
    const ParsedLines& p = slot->parsed;
    bool counts_only = read && !slot->line_by_line && p.items.empty() &&
                       (slot->lines == 0 || holds_nccl_marker(p.first_text));
    bool kept = false;
    {
      std::lock_guard lk(mutex_);
      if (counts_only && slot->id >= next_id_) {
        counted_.emplace(slot->id, Counted{p.counts, slot->lines, p.first_share, p.first_number});
        kept = true;
      }
      if (read) ahead_misses_ = counts_only ? 0 : ahead_misses_ + 1;
      slot->ahead = false;
      slot->parsed.clear();
      free_.push_back(slot);
      cv_.notify_all();
    }
    if (options_.after_parse_ahead) options_.after_parse_ahead(kept);
  }

  // The chunk's parsed lines, as parse_chunk() left them, from its counts.
  // ModelBuilder::apply() reads the first line's text only to see whether
  // it holds NCCL's marker, which parse_ahead() made sure it does.
  static void take_counts(Slot& slot, const Counted& counted) {
    slot.counted = true;
    slot.line_by_line = false;
    slot.lines = counted.lines;
    ParsedLines& p = slot.parsed;
    p.counts = counted.counts;
    p.first_share = counted.first_share;
    p.first_number = counted.first_number;
    p.first_items = 0;
    p.first_text = " NCCL ";
  }

  // Hands out the next chunk: a free slot and, for a stream, its bytes.
  // nullptr when the input is exhausted.
  // While the chunks are setup lines and setup_on_one_core_, a helper does
  // not take the next chunk: it parses one of the file's last chunks ahead
  // of its turn (parse_ahead), or waits. A log's end is most often
  // per-operation lines, which leave only counts.
  Slot* take(bool helper = false) {
    Slot* slot;
    {
      std::unique_lock lk(mutex_);
      cv_.wait(lk, [&] {
        if (done_) return true;
        bool room = !free_.empty() || slots_made_ < slots_total_;
        return room && (!(helper && park_helpers_) || can_parse_ahead());
      });
      if (done_) return nullptr;
      if (!free_.empty()) {
        slot = free_.back();
        free_.pop_back();
      } else {
        slots_.push_back(std::make_unique<Slot>());
        slot = slots_.back().get();
        slot->buffer = std::make_unique_for_overwrite<char[]>(capacity_);
        slot->capacity = capacity_;
        ++slots_made_;
      }
      slot->begin = slot->end = 0;
      slot->parsed.known_hosts = known_hosts_;
      if (helper && park_helpers_) {
        slot->ahead = true;
        slot->id = ahead_next_--;
        // Inputs are in chunk order: the last one that starts at or before the id.
        auto input = std::upper_bound(inputs_.begin(), inputs_.end(), slot->id,
                                      [](uint64_t id, const Input& in) { return id < in.first_chunk; });
        slot->input = static_cast<size_t>(input - inputs_.begin()) - 1;
        slot->chunk = slot->id - inputs_[slot->input].first_chunk;
        return slot;
      }
      if (regular_) {
        slot->id = next_id_++;
        while (slot->id >= inputs_[take_input_].first_chunk + inputs_[take_input_].chunks) ++take_input_;
        slot->input = take_input_;
        slot->chunk = slot->id - inputs_[take_input_].first_chunk;
        if (next_id_ >= chunks_) done_ = true;
        if (auto it = counted_.find(slot->id); it != counted_.end()) {
          // After a failed read, a file's later chunks are empty, as read.
          if (inputs_[slot->input].error == 0) take_counts(*slot, it->second);
          counted_.erase(it);
        }
        return slot;
      }
    }
    // A stream is read in order, by one thread at a time, under its own lock
    // so that merging never waits for a writer that pauses.
    std::lock_guard read_lock(read_mutex_);
    bool done;
    {
      std::lock_guard lk(mutex_);
      done = done_;
    }
    int err = 0;
    bool at_end = done;
    if (!done) {
      slot->id = next_id_++;
      at_end = read_stream(*slot, err);
    }
    if (at_end || err) {
      std::lock_guard lk(mutex_);
      if (err && error_ == 0) error_ = err;
      done_ = true;
      cv_.notify_all();
      if (slot->begin == slot->end) {
        // An empty last chunk: its id is the last one, nothing waits for it.
        free_.push_back(slot);
        return nullptr;
      }
    }
    return slot;
  }

  // Chunk `n` of a regular file: the lines that start in
  // [base + n * chunk, base + (n + 1) * chunk), read with pread. After a
  // failed read the file's later chunks are empty. False when this read
  // failed: a chunk read ahead of its turn records no error then.
  bool read_regular(Slot& slot, bool ahead = false) {
    const size_t chunk = chunk_;
    const size_t max_line = options_.max_line;
    const Input& input = inputs_[slot.input];
    const int fd = input.fd;
    {
      std::lock_guard lk(mutex_);
      if (input.error != 0) return true;
    }
    off_t start = input.base + static_cast<off_t>(slot.chunk * chunk);
    off_t from = slot.chunk == 0 ? start : start - 1;
    slot.file_offset = from;
    // Up to the size the file had when the feed began, so that the last
    // chunk costs no read that returns nothing (one per file: per-rank files
    // come by the thousand).
    off_t stop = std::min(start + static_cast<off_t>(chunk), input.end);
    size_t want = stop > from ? static_cast<size_t>(stop - from) : 0;
    size_t n = 0;
    bool eof = stop == input.end;
    while (n < want) {
      ssize_t r = pread_retry(fd, slot.buffer.get() + n, want - n, from + static_cast<off_t>(n));
      if (r < 0) return fail(slot, errno, ahead);
      if (r == 0) {
        eof = true;  // the file has shrunk
        break;
      }
      n += static_cast<size_t>(r);
    }
    char* buf = slot.buffer.get();
    size_t first = 0;
    if (slot.chunk > 0) {
      // The line in progress at `start` belongs to the chunk before.
      const void* nl = std::memchr(buf, '\n', n);
      if (!nl) return true;
      first = static_cast<size_t>(static_cast<const char*>(nl) - buf) + 1;
    }
    slot.begin = first;
    slot.end = n;
    if (first >= n || eof) return true;
    // A line that starts here and runs past the chunk: read up to its end,
    // or just enough of it to know it is overlong.
    const void* last_nl = memrchr(buf + first, '\n', n - first);
    if (last_nl && static_cast<const char*>(last_nl) == buf + n - 1) return true;
    size_t line_start = last_nl ? static_cast<size_t>(static_cast<const char*>(last_nl) - buf) + 1 : first;
    // A few KB hold the rest of almost every line; reading up to the longest
    // line at once copied a quarter as much again as a 256 KB chunk.
    size_t step = 4096;
    while (n - line_start < overlong_head(max_line) && from + static_cast<off_t>(n) < input.end) {
      size_t room = std::min({step, line_start + overlong_head(max_line) - n, slot.capacity - n,
                              static_cast<size_t>(input.end - from) - n});
      step *= 2;
      ssize_t r = pread_retry(fd, buf + n, room, from + static_cast<off_t>(n));
      if (r < 0) return fail(slot, errno, ahead);
      if (r == 0) break;
      const void* nl = std::memchr(buf + n, '\n', static_cast<size_t>(r));
      n += static_cast<size_t>(r);
      if (nl) {
        n = static_cast<size_t>(static_cast<const char*>(nl) - buf) + 1;
        break;
      }
    }
    slot.end = n;
    return true;
  }

  // The next run of whole lines from a stream; the incomplete tail is kept
  // for the next chunk. Returns true at the end of the stream. Called under
  // read_mutex_.
  bool read_stream(Slot& slot, int& err) {
    const size_t max_line = options_.max_line;
    char* buf = slot.buffer.get();
    size_t len = carry_.size();
    if (len > 0) std::memcpy(buf, carry_.data(), len);  // an empty vector's data() may be null
    carry_.clear();
    size_t target = chunk_;
    size_t scanned = 0;  // buf[0, scanned) holds no newline
    bool have_line = false;
    std::chrono::steady_clock::time_point first_line_at;
    while (!eof_) {
      if (skipping_) {
        // Dropping the rest of an overlong line, up to its newline.
        const void* nl = std::memchr(buf, '\n', len);
        if (nl) {
          size_t drop = static_cast<size_t>(static_cast<const char*>(nl) - buf) + 1;
          std::memmove(buf, buf + drop, len - drop);
          len -= drop;
          skipping_ = false;
          continue;
        }
        len = 0;
      } else {
        if (!have_line) {
          have_line = std::memchr(buf + scanned, '\n', len - scanned) != nullptr;
          scanned = len;
          if (have_line) first_line_at = std::chrono::steady_clock::now();
        }
        if (!have_line && len > max_line) {
          // Overlong: keep what make_line() needs to flag it, skip the rest.
          len = overlong_head(max_line);
          skipping_ = true;
          break;
        }
        // Without a whole line, a full chunk would go out empty, forever.
        if (len >= target && have_line) break;
        if (!have_line && wait_out_silence(slot.id)) continue;
        // A stream that pauses hands over what it has, for live output: a
        // pause is kPause without a byte (a fast writer's gaps are shorter,
        // and its chunks stay full), and a steady trickle goes out every
        // kMaxHold.
        if (have_line) {
          auto held = std::chrono::steady_clock::now() - first_line_at;
          if (held >= kMaxHold) break;
          auto wait = std::min<std::chrono::steady_clock::duration>(kPause, kMaxHold - held);
          pollfd pfd{inputs_[0].fd, POLLIN, 0};
          int ms = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(wait).count());
          if (::poll(&pfd, 1, ms) == 0) break;
        }
      }
      ssize_t r = read_retry(inputs_[0].fd, buf + len, slot.capacity - len);
      if (r < 0) {
        err = errno;
        eof_ = true;
      } else if (r == 0) {
        eof_ = true;
      } else {
        if (options_.tap) options_.tap(std::string_view(buf + len, static_cast<size_t>(r)));
        len += static_cast<size_t>(r);
        last_byte_at_ = std::chrono::steady_clock::now();
        silence_told_ = false;
      }
    }
    size_t cut = len;
    if (!eof_ && !skipping_) {
      const void* nl = memrchr(buf, '\n', len);
      cut = nl ? static_cast<size_t>(static_cast<const char*>(nl) - buf) + 1 : 0;
    }
    carry_.assign(buf + cut, buf + len);
    slot.begin = 0;
    slot.end = cut;
    return eof_;
  }

  // Before a read that would block with nothing to hand over: waits up to
  // the silence for a byte, and when none comes, tells on_silence once,
  // after the chunks before `id` are merged (no other chunk can start: this
  // thread holds the read lock). True when it told.
  bool wait_out_silence(uint64_t id) {
    if (options_.silence.count() <= 0 || !options_.on_silence || silence_told_) return false;
    auto quiet = std::chrono::steady_clock::now() - last_byte_at_;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(options_.silence - quiet);
    pollfd pfd{inputs_[0].fd, POLLIN, 0};
    if (left.count() > 0 && ::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), INT32_MAX))) != 0) {
      return false;
    }
    silence_told_ = true;
    std::unique_lock lk(mutex_);
    cv_.wait(lk, [&] { return next_merge_ == id && !merging_; });
    merging_ = true;
    lk.unlock();
    options_.on_silence(LineRef{inputs_[0].file, static_cast<uint32_t>(std::min<uint64_t>(lines_, UINT32_MAX))},
                        std::chrono::steady_clock::now() - last_byte_at_);
    lk.lock();
    merging_ = false;
    cv_.notify_all();
    return true;
  }

  // A failed read of a regular file: the lines before it stand. A chunk
  // read ahead of its turn records nothing: it is read again in its turn.
  bool fail(Slot& slot, int err, bool ahead) {
    if (ahead) return false;
    std::lock_guard lk(mutex_);
    if (inputs_[slot.input].error == 0) inputs_[slot.input].error = err;
    return false;
  }

  // After chunk `id` is merged: is more input ready, a parsed chunk or bytes
  // in the stream? Called by the merging thread.
  bool more_waiting(uint64_t id) {
    {
      std::lock_guard lk(mutex_);
      if (ready_.count(id + 1)) return true;
      if (done_ && next_id_ <= id + 1) return false;
    }
    if (regular_) return true;
    pollfd pfd{inputs_[0].fd, POLLIN, 0};
    return ::poll(&pfd, 1, 0) > 0;
  }

  // Queues a parsed chunk; whoever finds the merge free merges every chunk
  // that is next in line, outside the lock.
  // A helper that merges chunks it took before the helpers were parked
  // would go on merging the setup chunks that the feeding thread (run())
  // parses meanwhile, on two cores: while the helpers are parked, that
  // thread waits for such a merge to end, so that its later chunks are
  // merged on its core. (The merger notifies after each merge, under the
  // lock that it holds until it stops merging.)
  void publish(Slot* slot, bool helper) {
    std::unique_lock lk(mutex_);
    if (!helper && park_helpers_ && merging_) cv_.wait(lk, [&] { return !merging_; });
    ready_[slot->id] = slot;
    if (merging_) return;
    merging_ = true;
    while (true) {
      auto it = ready_.find(next_merge_);
      if (it == ready_.end()) break;
      Slot* s = it->second;
      ready_.erase(it);
      lk.unlock();
      if (s->input != merge_input_) {
        // The next file starts at its line 1.
        results_[merge_input_].lines = lines_;
        lines_ = 0;
        merge_input_ = s->input;
      }
      const uint32_t file = inputs_[s->input].file;
      const size_t hosts_before = builder_.model().hosts.size();
      if (s->counted) ++results_[s->input].chunks_counted_ahead;
      if (s->line_by_line) {
        split_lines(lines_of(*s), options_.max_line, [&](const Line& line) {
          builder_.add_line(file, Line{line.text, lines_ + line.number, line.truncated});
        });
      } else {
        builder_.apply(file, lines_, s->parsed);
      }
      lines_ += s->lines;
      // The chunks that follow a chunk of setup lines are most likely setup
      // lines too: a job's setup comes in one piece (per rank, or per file).
      bool setup = !s->line_by_line && s->parsed.items.size() * 4 > s->lines;
      s->parsed.clear();
      s->counted = false;
      if (options_.after_merge) options_.after_merge(more_waiting(s->id));
      auto known = builder_.host_snapshot();
      const size_t hosts = builder_.model().hosts.size();
      lk.lock();
      known_hosts_ = std::move(known);
      hosts_settled_ = hosts > 0 && hosts == hosts_before && known_hosts_ && known_hosts_->size() == hosts;
      park_helpers_ = setup_on_one_core_ && setup;
      ++next_merge_;
      free_.push_back(s);
      cv_.notify_all();
    }
    merging_ = false;
  }

  struct Input {
    int fd = -1;
    uint32_t file = 0;
    off_t base = 0;            // a regular file's first byte to read
    off_t end = 0;             // and its size when the feed began: nothing after it is read
    uint64_t first_chunk = 0;  // the id of its first chunk
    uint64_t chunks = 0;
    int error = 0;             // of a failed read, under mutex_
  };

  ModelBuilder& builder_;
  FeedOptions options_;
  size_t threads_ = 1;
  size_t chunk_ = 0;
  size_t capacity_ = 0;

  std::vector<Input> inputs_;
  bool regular_ = false;  // every input read by offset; else one stream
  uint64_t chunks_ = 0;   // of all regular inputs
  size_t take_input_ = 0;  // the input of chunk next_id_, under mutex_

  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> free_;
  size_t slots_made_ = 0;
  size_t slots_total_ = 0;
  uint64_t next_id_ = 0;  // under mutex_ for a file, read_mutex_ for a stream
  bool done_ = false;
  int error_ = 0;  // a stream's failed read
  // Stream state, under read_mutex_.
  std::mutex read_mutex_;
  std::vector<char> carry_;
  bool eof_ = false;
  bool skipping_ = false;
  std::chrono::steady_clock::time_point last_byte_at_ = std::chrono::steady_clock::now();
  bool silence_told_ = false;
  // Merge state: ready_ under the lock, the rest owned by the merging thread.
  std::map<uint64_t, Slot*> ready_;
  std::shared_ptr<const NameSet> known_hosts_;  // under mutex_
  uint64_t next_merge_ = 0;
  bool merging_ = false;
  bool setup_on_one_core_ = false;  // set before the helpers start
  bool park_helpers_ = false;       // under mutex_
  // Parsing ahead (see take), under mutex_: the chunks that left only
  // counts, by id; the next chunk to parse ahead (they go down from the
  // last); how many in a row held more than counts; whether the last merge
  // named no new host and known_hosts_ holds every host.
  std::map<uint64_t, Counted> counted_;
  uint64_t ahead_next_ = 0;
  unsigned ahead_misses_ = 0;
  bool hosts_settled_ = false;
  size_t merge_input_ = 0;
  uint64_t lines_ = 0;  // of the input being merged
  std::vector<FeedResult> results_;
};

}  // namespace

FeedResult feed_lines(int fd, uint32_t file, ModelBuilder& builder, const FeedOptions& options) {
  FeedInput input{fd, file};
  return Feeder(std::span<const FeedInput>(&input, 1), builder, options).run()[0];
}

std::vector<FeedResult> feed_files(std::span<const FeedInput> inputs, ModelBuilder& builder,
                                   const FeedOptions& options) {
  bool together = !options.after_merge && !options.on_silence &&
                  std::all_of(inputs.begin(), inputs.end(),
                              [&](const FeedInput& in) { return read_by_offset(in, options, /*alone=*/false); });
  if (together && !inputs.empty()) return Feeder(inputs, builder, options).run();
  std::vector<FeedResult> results;
  for (const FeedInput& in : inputs) results.push_back(feed_lines(in.fd, in.file, builder, options));
  return results;
}

}  // namespace nd
