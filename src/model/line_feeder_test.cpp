#include "src/model/line_feeder.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace nd;
namespace fs = std::filesystem;

namespace {

std::string refs(const std::vector<LineRef>& v) {
  std::string s;
  for (auto r : v) s += fmt::format("{}:{} ", r.file, r.line);
  return s;
}

std::string observations(const std::map<std::string, std::vector<Observation>>& m) {
  std::string s;
  for (const auto& [k, v] : m) {
    s += k + ":";
    for (const auto& o : v) s += fmt::format(" {}/{}/{}", o.host, o.pid, o.line.line);
    s += "\n";
  }
  return s;
}

// Everything the checks can see, as text, so two models compare with ==.
std::string describe(const JobModel& m) {
  std::ostringstream out;
  const auto& c = m.counters;
  out << fmt::format("lines {} nccl {} info {} warn {} unknown {} malformed {} spliced {} truncated {} conn {} init {} "
                     "ambiguous {}\n",
                     c.lines, c.nccl_lines, c.info_lines, c.warn_lines, c.unknown_lines, c.malformed_lines,
                     c.spliced_lines, c.truncated_lines, c.connection_lines, c.init_lines, c.ambiguous_assignments);
  for (const auto& h : m.hosts.names()) out << "host " << h << "\n";
  for (const auto& t : m.transport_texts.names()) out << "transport " << t << "\n";
  for (const auto& comm : m.comms) {
    out << fmt::format("comm {} n {} nodes {} synthetic {} first {}\n", comm.key, comm.nranks, comm.nnodes,
                       comm.synthetic, comm.first_line.line);
    for (size_t r = 0; r < comm.ranks.size(); ++r) {
      const auto& i = comm.ranks[r];
      out << fmt::format(" rank {} host {} pid {} dev {} {} bus {} {} {} line {}\n", r, i.host, i.pid, i.cuda_dev,
                         i.nvml_dev, i.bus_id.value_or(0), i.init_started, i.init_completed, i.init_line.line);
    }
    for (const auto& e : comm.edges) {
      out << fmt::format(" edge {} {} {} {} {} {} {}:{} {}:{}\n", e.channel, e.conn_index, e.sender, e.receiver,
                         e.send_transport, e.recv_transport, e.send_line.file, e.send_line.line, e.recv_line.file,
                         e.recv_line.line);
    }
    for (const auto& l : comm.listings) out << fmt::format(" listing {} {} {}\n", l.channel, l.ranks.size(), l.line.line);
    for (const auto& g : comm.graph_rings) out << fmt::format(" graph {} {} {} {}\n", g.channel, g.prev, g.me, g.next);
    for (const auto& t : comm.trees) out << fmt::format(" tree {} {} {} {}\n", t.entry.channel, t.entry.me, t.entry.up, t.line.line);
  }
  out << observations(m.versions) << observations(m.cuda_versions) << observations(m.using_network)
      << observations(m.net_using);
  for (const auto& [v, list] : m.driver_versions) out << "driver " << v << " " << list.size() << "\n";
  for (const auto& e : m.env) out << fmt::format("env {} {} {} {}\n", e.name, e.value, e.host, e.line.line);
  for (const auto& w : m.warnings) {
    out << fmt::format("warn {} {} {} {} {}\n", w.host, w.location, w.message, w.line.line, w.cls.group);
  }
  out << "unknown " << refs(m.unknown_samples) << "\nmalformed " << refs(m.malformed_samples) << "\n";
  out << fmt::format("nvls {} {}\n", m.max_nvls_channels, m.nvls_connected);
  for (const auto& f : m.framework_errors) {
    out << fmt::format("framework {} {} {} {} {} {}\n", static_cast<int>(f.kind), f.text, f.line.line,
                       f.watchdog ? f.watchdog->seq : 0, f.nccl_error ? f.nccl_error->error : "", f.cls.group);
  }
  for (uint64_t k : m.line_text.keys()) {
    out << "text " << k << " " << *m.text_of(LineRef{static_cast<uint32_t>(k >> 32), static_cast<uint32_t>(k)}) << "\n";
  }
  return out.str();
}

std::string temp_file(const std::string& content) {
  char path[] = "/tmp/nd-feeder-XXXXXX";
  int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
  ::close(fd);
  return path;
}

// The reference: the whole file split at once and add_line, one line at a time.
std::string by_lines(const std::string& path, size_t max_line) {
  JobModel model;
  ModelBuilder builder(model);
  uint32_t file = builder.add_file("job.log");
  std::ifstream in(path, std::ios::binary);
  std::string content(std::istreambuf_iterator<char>(in), {});
  split_lines(content, max_line, [&](const Line& line) { builder.add_line(file, line); });
  builder.finish();
  return describe(model);
}

std::string by_file(const std::string& path, const FeedOptions& options, FeedResult* result = nullptr) {
  JobModel model;
  ModelBuilder builder(model);
  uint32_t file = builder.add_file("job.log");
  int fd = ::open(path.c_str(), O_RDONLY);
  FeedResult r = feed_lines(fd, file, builder, options);
  ::close(fd);
  CHECK(r.error == 0);
  builder.finish();
  if (result) *result = r;
  return describe(model);
}

// Through a pipe, written in uneven pieces with pauses, as a live job does.
std::string by_pipe(const std::string& content, const FeedOptions& options, size_t piece) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    size_t done = 0;
    size_t n = 0;
    while (done < content.size()) {
      size_t len = std::min(content.size() - done, piece + (n * 7919) % (piece + 1));
      ssize_t w = ::write(fds[1], content.data() + done, len);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
      if (++n % 16 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ::close(fds[1]);
  });
  JobModel model;
  ModelBuilder builder(model);
  uint32_t file = builder.add_file("job.log");
  FeedResult r = feed_lines(fds[0], file, builder, options);
  writer.join();
  ::close(fds[0]);
  CHECK(r.error == 0);
  builder.finish();
  return describe(model);
}

FeedOptions feed_options(size_t threads, size_t chunk, size_t max_line) {
  FeedOptions options;
  options.threads = threads;
  options.chunk = chunk;
  options.max_line = max_line;
  return options;
}

std::string golden_logs() {
  std::vector<fs::path> paths;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ND_SOURCE_ROOT) / "testdata" / "logs")) {
    if (e.is_regular_file() && e.path().extension() == ".log") paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  std::string all;
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    all += std::string(std::istreambuf_iterator<char>(in), {});
  }
  return all;
}

}  // namespace

TEST_CASE("feeding a file in chunks on several threads builds the line-by-line model") {
  std::string content = golden_logs();
  REQUIRE(content.size() > 10000);
  // Hostile shapes at the chunk seams: no final newline, CRLF, empty lines,
  // lines longer than the cap, and a cap hit exactly.
  content += "\r\n\n" + std::string(300, 'x') + "\ngpu01:1:1 [0] NCCL INFO " + std::string(200, 'y') + "\r\n";
  content += std::string(100, 'z') + "\r\n" + std::string(99, 'w') + "\r\n";
  // A line's rest past a seam is read a few KB at a time: lines longer than
  // one step, than several, and than the default cap.
  content += "gpu01:1:1 [0] NCCL INFO " + std::string(10000, 'v') + "\n" + std::string(70000, 'u') + "\n";
  content += "gpu01:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0\n";
  // `Last error:` takes the next line, whatever it is, even across a seam.
  for (int i = 0; i < 3; ++i) {
    content += "[rank0]:[E ProcessGroupNCCL.cpp:1234] Watchdog caught collective operation timeout\n";
    content += "torch.distributed.DistBackendError: NCCL error: unhandled system error, Last error:\n";
    content += "gpu01:1:1 [0] NCCL INFO Using network IB\n";
    content += "Last error:\nLast error:\nsocket timeout " + std::string(static_cast<size_t>(i * 40), 's') + "\n";
    content += "Last error: inline body\n" + std::string(static_cast<size_t>(i * 31), '-') + "\n";
  }
  content += "gpu77:1:1 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\r";
  std::string path = temp_file(content);
  for (size_t max_line : {size_t{100}, kDefaultMaxLine}) {
    std::string expected = by_lines(path, max_line);
    for (size_t threads : {1, 2, 4}) {
      for (size_t chunk : {size_t{7}, size_t{97}, size_t{4096}, size_t{1} << 20}) {
        // Setup lines parsed by every thread, and by the merging one alone.
        for (bool one_core : {false, true}) {
          INFO("max_line " << max_line << " threads " << threads << " chunk " << chunk << " one core " << one_core);
          FeedOptions options = feed_options(threads, chunk, max_line);
          options.setup_on_one_core = one_core;
          CHECK(by_file(path, options) == expected);
        }
      }
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("per-operation lines counted in bulk build the line-by-line model") {
  // NCCL 2.18.3 COLL and 2.24 TUNING lines, and every shape the bulk path
  // must leave to the full one: an unknown host, a host with an 'N', a TAB,
  // ESC, CR, a second header spliced in, a WARN line, a launcher prefix, a
  // line cut at max_line, and lines after `Last error:`.
  const std::string op = "AllReduce: opCount 1f sendbuff 0x7f2f3a000000 recvbuff 0x7f2f3a000000 count 262144 "
                         "datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=16] stream 0x55d786a0f720";
  std::string setup =
      "gpu01:2771:2771 [0] NCCL INFO comm 0x55d7869cef50 rank 0 nranks 16 cudaDev 0 busId 18000 commId "
      "0x7f1c2e9a40b31d57 - Init START\n"
      "gpu01:2771:2771 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
  std::string content;
  for (int round = 0; round < 40; ++round) {
    std::string r = std::to_string(round);
    if (round == 3) content += setup;
    content += "gpu01:2771:2771 [0] NCCL INFO " + op + "\n";
    content += "gpu0" + std::to_string(2 + round % 3) + ":2808:2808 [1] NCCL INFO " + op + "\n";
    content += "NODE-" + r + ":3001:3001 [2] NCCL INFO " + op + "\n";
    content += "gpu01:2771:2771 [0] NCCL INFO AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31}\n";
    content += "gpu01:2771:2771 [0] NCCL INFO " + op + "\tx\n";
    content += "gpu01:2771:2771 [0] NCCL INFO \x1b[0m" + op + "\n";
    content += "gpu01:2771:2771 [0] NCCL INFO " + op + "\rgpu01:2771:2771 [0] NCCL INFO Using network IB\r\n";
    content += "gpu01:2771:2771 [0] NCCL INFO AllReduce: opCount 2 gpu09:1:1 [3] NCCL INFO Using network Socket\n";
    content += "gpu01:2771:2771 [0] NCCL WARN " + op + "\n";
    content += "[1,0]<stdout>:gpu01:2771:2771 [0] NCCL INFO " + op + "\n";
    content += " " + r + ": gpu0" + r + ":2771:2771 [0] NCCL INFO " + op + "\n";
    content += "torch.distributed.DistBackendError: NCCL error: unhandled system error, Last error:\n";
    content += "gpu01:2771:2771 [0] NCCL INFO " + op + "\n";
    content += "gpu01:2771:2771 [0] NCCL INFO " + op + std::string(static_cast<size_t>(round * 3), 'x') + "\n";
    content += "x gpu01:2771:2771 [0] NCCL INFO " + op + "\n";
    content += ":2771:2771 [0] NCCL INFO " + op + "\n";
    content += "gpu01:2771 [0] NCCL INFO " + op + "\n";
  }
  std::string path = temp_file(content);
  for (size_t max_line : {size_t{230}, kDefaultMaxLine}) {
    std::string expected = by_lines(path, max_line);
    for (size_t threads : {1, 2}) {
      for (size_t chunk : {size_t{61}, size_t{1000}, size_t{1} << 20}) {
        for (bool one_core : {false, true}) {
          INFO("max_line " << max_line << " threads " << threads << " chunk " << chunk << " one core " << one_core);
          FeedOptions options = feed_options(threads, chunk, max_line);
          options.setup_on_one_core = one_core;
          CHECK(by_file(path, options) == expected);
          CHECK(by_pipe(content, options, 777) == expected);
        }
      }
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("a log's end parsed ahead while its setup is read on one core builds the line-by-line model") {
  // A long setup (init and connection lines of four hosts), then per-operation
  // lines of those hosts, which a waiting helper parses ahead of their turn
  // and keeps as counts; among them the shapes that leave more than counts:
  // a host named for the first time, a WARN, `Last error:` before NCCL's
  // next line or before its message (at every seam, as chunk sizes vary),
  // and a last line without a newline. The feeding thread waits, in a merge
  // of setup lines, until a helper has kept a chunk's counts.
  const std::string op = "AllReduce: opCount 1f sendbuff 0x7f2f3a000000 recvbuff 0x7f2f3a000000 count 262144 "
                         "datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=8] stream 0x55d786a0f720";
  std::string content;
  for (int rank = 0; rank < 8; ++rank) {
    content += fmt::format("gpu0{}:{}:{} [{}] NCCL INFO comm 0x55d7869cef50 rank {} nranks 8 cudaDev {} busId 18000 "
                           "commId 0x7f1c2e9a40b31d57 - Init START\n",
                           1 + rank / 2, 2771 + rank, 2771 + rank, rank % 2, rank, rank % 2);
  }
  const size_t hosts_named = content.size();
  for (int channel = 0; channel < 32; ++channel) {
    for (int rank = 0; rank < 8; ++rank) {
      content += fmt::format("gpu0{}:{}:{} [{}] NCCL INFO Channel {:02d}/0 : {}[{}] -> {}[{}] via P2P/IPC/read\n",
                             1 + rank / 2, 2771 + rank, 2771 + rank, rank % 2, channel, rank, rank % 2,
                             (rank + 1) % 8, (rank + 1) % 2);
    }
  }
  for (int n = 0; n < 3020; ++n) {
    int rank = n % 8;
    content += fmt::format("gpu0{}:{}:{} [{}] NCCL INFO {}\n", 1 + rank / 2, 2771 + rank, 2771 + rank, rank % 2, op);
    if (n == 2910) content += "gpu09:1:1 [0] NCCL INFO " + op + "\n";
    if (n == 2930) content += "gpu01:2771:2771 [0] NCCL WARN Call to ibv_reg_mr failed\n";
    if (n == 2950) content += "ncclSystemError: System call (e.g. socket, malloc) failed\nLast error:\n";
    if (n == 2970) content += "Last error:\nsocketStartConnect: Connect to 10.0.0.1<34567> failed\n";
    // An empty message: NCCL's next lines are not it, nor a line after them
    // (1 to 4 lines after; model_builder_test holds it at exact seams).
    if (n == 2976 || n == 2982 || n == 2989 || n == 2997) content += "Last error:\n";
    if (n == 2977 || n == 2984 || n == 2992 || n == 2999) content += "Traceback (most recent call last):\n";
  }
  // The last 2 KB name the first host alone: the first chunk a helper parses
  // ahead, the last one, keeps its counts once any host is known.
  for (int n = 0; n < 12; ++n) content += "gpu01:2771:2771 [0] NCCL INFO " + op + "\n";
  content += "gpu01:2771:2771 [0] NCCL INFO " + op;
  std::string path = temp_file(content);
  std::string expected = by_lines(path, kDefaultMaxLine);
  const std::thread::id feeding_thread = std::this_thread::get_id();
  for (size_t threads : {2, 4}) {
    for (size_t chunk : {size_t{61}, size_t{250}, size_t{1000}, size_t{4096}}) {
      INFO("threads " << threads << " chunk " << chunk);
      FeedOptions options = feed_options(threads, chunk, kDefaultMaxLine);
      options.setup_on_one_core = true;
      // Chunks of 250 and 1000 bytes each hold a setup line or more (61 may
      // hold none, and after an empty chunk the helpers take chunks in
      // turn); 4096 leave too few of them. Where they do, the feeding thread,
      // while it merges the chunk after one with connection lines alone
      // (every host named before it), waits for a helper to keep the counts
      // of a chunk parsed ahead: the helpers are parked then, with a slot
      // free, and parking and the known hosts stay as the last merge left
      // them until this merge ends.
      const bool waits = chunk == 250 || chunk == 1000;
      const uint64_t first_wait = (hosts_named + chunk - 1) / chunk + 1;
      std::mutex m;
      std::condition_variable cv;
      bool kept = false;
      bool waited = false;
      uint64_t merged = 0;
      options.after_parse_ahead = [&](bool counts_kept) {
        std::lock_guard lk(m);
        kept = kept || counts_kept;
        cv.notify_all();
      };
      options.after_merge = [&](bool) {
        const uint64_t id = merged++;  // one call a chunk, in order
        // A helper merges the chunks it took before it was parked.
        if (!waits || waited || id < first_wait || std::this_thread::get_id() != feeding_thread) return;
        waited = true;
        std::unique_lock lk(m);
        // The limit turns a feeder that never parses ahead into a failure, not a hang.
        CHECK(cv.wait_for(lk, std::chrono::seconds(20), [&] { return kept; }));
      };
      FeedResult r;
      CHECK(by_file(path, options, &r) == expected);
      CHECK(r.lines == split_lines(content, kDefaultMaxLine, [](const Line&) {}));
      if (waits) {
        CHECK(waited);
        CHECK(r.chunks_counted_ahead > 0);
      }
      // The helpers wait, and parse nothing ahead, where setup lines are
      // parsed on every core.
      options.setup_on_one_core = false;
      options.after_merge = nullptr;
      options.after_parse_ahead = nullptr;
      CHECK(by_file(path, options, &r) == expected);
      CHECK(r.chunks_counted_ahead == 0);
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("lines that name no host, and a first line that lost characters, build the line-by-line model") {
  // NCCL 2.19.3 shapes as pasted: the first line's host lost its `t`, lines
  // without host:pid:tid (bare, under srun labels, pdsh and quotes), stand-in
  // hosts, and per-operation lines of each that the bulk path must not count
  // as a known host's.
  const std::string op = "AllReduce: opCount 1f sendbuff 0x7f2f3a000000 recvbuff 0x7f2f3a000000 count 262144 "
                         "datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=16] stream 0x55d786a0f720";
  std::string content = "pgds-aihub0007:2771:2771 [0] NCCL INFO " + op + "\n";
  for (int round = 0; round < 30; ++round) {
    std::string r = std::to_string(round);
    content += "[" + std::to_string(round % 4) + "] NCCL INFO " + op + "\n";
    content += " " + r + ": [0] NCCL INFO Using network IB\n";
    content += "> [1] NCCL INFO " + op + "\n";
    content += "# MAGIC [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0\n";
    content += "gpu0" + r + ": [2] NCCL INFO " + op + "\n";
    content += "<cluster_name>:919:1150 [0] NCCL INFO " + op + "\n";
    content += "xxx:919:1150 [0] NCCL INFO " + op + "\n";
    content += "gpu07: xxx:919:1150 [0] NCCL INFO " + op + "\n";
    content += "12:34:56 [0] NCCL INFO " + op + "\n";
    if (round == 5) content += "tpgds-aihub0007:2771:2771 [0] NCCL INFO Using network IB\n";
    if (round > 5) content += "pgds-aihub0007:2771:2771 [0] NCCL INFO " + op + "\n";
    content += "tpgds-aihub0007:2771:2771 [0] NCCL INFO " + op + "\n";
  }
  std::string path = temp_file(content);
  std::string expected = by_lines(path, kDefaultMaxLine);
  CHECK(expected.find("host tpgds-aihub0007\n") != std::string::npos);
  CHECK(expected.find("host pgds-aihub0007\n") == std::string::npos);
  for (size_t threads : {1, 2}) {
    for (size_t chunk : {size_t{61}, size_t{1000}, size_t{1} << 20}) {
      INFO("threads " << threads << " chunk " << chunk);
      FeedOptions options = feed_options(threads, chunk, kDefaultMaxLine);
      CHECK(by_file(path, options) == expected);
      CHECK(by_pipe(content, options, 777) == expected);
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("feeding a pipe that pauses builds the line-by-line model") {
  std::string content = golden_logs();
  content += std::string(250, 'q') + "\nlast line without newline NCCL INFO x";
  std::string path = temp_file(content);
  for (size_t max_line : {size_t{100}, kDefaultMaxLine}) {
    std::string expected = by_lines(path, max_line);
    for (size_t threads : {1, 2, 3}) {
      for (size_t piece : {size_t{50}, size_t{4096}}) {
        INFO("max_line " << max_line << " threads " << threads << " piece " << piece);
        CHECK(by_pipe(content, feed_options(threads, 512, max_line), piece) == expected);
      }
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("a pipe read in chunks shorter than its lines still ends") {
  // 80-byte lines, 64-byte chunks: a chunk must wait for a whole line rather
  // than go out empty again and again.
  std::string line = "gpu01:2771:2771 [0] NCCL INFO " + std::string(49, 'x') + "\n";
  std::string content = line + line + line;
  std::string path = temp_file(content);
  std::string expected = by_lines(path, 100);
  for (size_t threads : {1, 2}) {
    INFO("threads " << threads);
    CHECK(by_pipe(content, feed_options(threads, 64, 100), 4096) == expected);
  }
  std::remove(path.c_str());
}

TEST_CASE("a line of exactly the cap is whole, however its bytes arrive") {
  // Its newline in the same read, in a later one, or never (end of input);
  // one byte more and it is cut.
  for (size_t chunk : {size_t{4}, size_t{32}, size_t{33}, size_t{4096}}) {
    for (const std::string& end : {std::string("\n"), std::string()}) {
      for (size_t length : {size_t{32}, size_t{33}}) {
        INFO("chunk " << chunk << " newline " << end.size() << " length " << length);
        int fds[2];
        REQUIRE(::pipe(fds) == 0);
        std::string content = std::string(length, 'w') + end;
        REQUIRE(::write(fds[1], content.data(), content.size()) == static_cast<ssize_t>(content.size()));
        ::close(fds[1]);
        JobModel model;
        ModelBuilder builder(model);
        FeedResult r = feed_lines(fds[0], builder.add_file("x"), builder, feed_options(1, chunk, 32));
        ::close(fds[0]);
        CHECK(r.lines == 1);
        CHECK(model.counters.truncated_lines == (length > 32 ? 1 : 0));
      }
    }
  }
}

TEST_CASE("a file read from an offset starts there, and an empty file has no lines") {
  std::string path = temp_file("skipped line\ngpu01:1:1 [0] NCCL INFO Using network IB\n");
  int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(::lseek(fd, 13, SEEK_SET) == 13);
  JobModel model;
  ModelBuilder builder(model);
  FeedResult r = feed_lines(fd, builder.add_file("x"), builder);
  ::close(fd);
  CHECK(r.lines == 1);
  CHECK(model.counters.lines == 1);
  CHECK(model.using_network.count("IB") == 1);
  std::remove(path.c_str());

  std::string empty = temp_file("");
  fd = ::open(empty.c_str(), O_RDONLY);
  JobModel m2;
  ModelBuilder b2(m2);
  CHECK(feed_lines(fd, b2.add_file("y"), b2).lines == 0);
  ::close(fd);
  std::remove(empty.c_str());
}

TEST_CASE("a file is read up to the size it had when the feed began") {
  const std::string line = "gpu01:1:1 [0] NCCL INFO Using network IB\n";
  std::string content;
  while (content.size() < 10000) content += line;
  const uint64_t lines = content.size() / line.size();
  std::string path = temp_file(content);
  SUBCASE("a file that grows while it is read") {
    // One thread, 4 KB chunks: the last chunk is read after the first merge.
    FeedOptions options = feed_options(1, 4096, kDefaultMaxLine);
    options.after_merge = [&, grown = false](bool) mutable {
      if (!std::exchange(grown, true)) std::ofstream(path, std::ios::app) << line << line;
    };
    JobModel model;
    ModelBuilder builder(model);
    int fd = ::open(path.c_str(), O_RDONLY);
    FeedResult r = feed_lines(fd, builder.add_file("x"), builder, options);
    ::close(fd);
    CHECK(r.error == 0);
    CHECK(r.lines == lines);
  }
  SUBCASE("a file handed over with its size, ending inside a line") {
    uint64_t size = content.size() - line.size() / 2;
    std::string cut = temp_file(content.substr(0, size));
    const std::string expected = by_lines(cut, kDefaultMaxLine);
    std::remove(cut.c_str());
    for (size_t threads : {1, 2}) {
      for (size_t chunk : {size_t{97}, size_t{4096}, size_t{1} << 20}) {
        INFO("threads " << threads << " chunk " << chunk);
        JobModel model;
        ModelBuilder builder(model);
        int fd = ::open(path.c_str(), O_RDONLY);
        std::vector<FeedInput> inputs{{fd, builder.add_file("job.log"), size}};
        std::vector<FeedResult> r = feed_files(inputs, builder, feed_options(threads, chunk, kDefaultMaxLine));
        ::close(fd);
        REQUIRE(r.size() == 1);
        CHECK(r[0].error == 0);
        CHECK(r[0].lines == lines);
        builder.finish();
        CHECK(describe(model) == expected);
      }
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("a read error is reported") {
  int fd = ::open("/", O_RDONLY | O_DIRECTORY);
  REQUIRE(fd >= 0);
  JobModel model;
  ModelBuilder builder(model);
  FeedResult r = feed_lines(fd, builder.add_file("dir"), builder);
  ::close(fd);
  CHECK(r.error == EISDIR);
}

TEST_CASE("a cited line of a file is read back from it, and one the file no longer holds says so") {
  const std::string line = "gpu01:100:100 [0] NCCL INFO Frobnicating the widget";
  std::string path = temp_file("header\n" + line + "\n");
  JobModel model;
  ModelBuilder builder(model);
  uint32_t file = builder.add_file("job.log");
  int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(feed_lines(fd, file, builder, feed_options(2, 4096, kDefaultMaxLine)).error == 0);
  ::close(fd);
  builder.finish();
  REQUIRE(model.text_of(LineRef{file, 2}));
  CHECK(*model.text_of(LineRef{file, 2}) == line);
  // A restarted job truncates and rewrites its log.
  std::ofstream(path, std::ios::trunc) << "header\ngpu01:100:100 [0] NCCL INFO Something else entirely\n";
  CHECK(*model.text_of(LineRef{file, 2}) == JobModel::kChangedLine);
  std::ofstream(path, std::ios::trunc) << "";
  CHECK(*model.text_of(LineRef{file, 2}) == JobModel::kChangedLine);
  ::unlink(path.c_str());
}

TEST_CASE("several files fed together build the model of each read in turn") {
  // Per-rank files: many, small, some empty or without a final newline, and
  // a `Last error:` at the end of one that must not take the next file's
  // first line.
  std::string all = golden_logs();
  std::vector<std::string> contents;
  for (size_t at = 0, n = 0; at < all.size(); ++n) {
    size_t len = std::min(all.size() - at, (n * 7919) % 9000 + (n % 5 == 0 ? 0 : 1));
    contents.push_back(all.substr(at, len));
    at += len;
  }
  contents.insert(contents.begin() + 3, "");
  contents.insert(contents.begin() + 4, "torch.distributed.DistBackendError: NCCL error, Last error:\n");
  contents.insert(contents.begin() + 5, "gpu01:1:1 [0] NCCL INFO Using network IB");
  REQUIRE(contents.size() > 20);
  std::vector<std::string> paths;
  for (const auto& c : contents) paths.push_back(temp_file(c));

  auto model_of = [&](const std::function<void(ModelBuilder&, const std::vector<uint32_t>&)>& read) {
    JobModel model;
    ModelBuilder builder(model);
    std::vector<uint32_t> files;
    for (size_t i = 0; i < paths.size(); ++i) files.push_back(builder.add_file(fmt::format("rank{}.log", i)));
    read(builder, files);
    builder.finish();
    return describe(model);
  };
  std::string expected = model_of([&](ModelBuilder& builder, const std::vector<uint32_t>& files) {
    for (size_t i = 0; i < paths.size(); ++i) {
      split_lines(contents[i], kDefaultMaxLine, [&](const Line& line) { builder.add_line(files[i], line); });
    }
  });
  for (size_t threads : {1, 2, 4}) {
    for (size_t chunk : {size_t{97}, size_t{4096}, size_t{1} << 20}) {
      for (bool one_core : {false, true}) {
        // As the command line hands them over, with their sizes (empty files
        // are not), or as bare descriptors.
        bool opened = one_core == (threads == 2);
        INFO("threads " << threads << " chunk " << chunk << " one core " << one_core << " opened " << opened);
        std::vector<FeedResult> results;
        std::string got = model_of([&](ModelBuilder& builder, const std::vector<uint32_t>& files) {
          std::vector<FeedInput> inputs;
          for (size_t i = 0; i < paths.size(); ++i) {
            inputs.push_back({::open(paths[i].c_str(), O_RDONLY), files[i], opened ? contents[i].size() : 0});
          }
          FeedOptions options = feed_options(threads, chunk, kDefaultMaxLine);
          options.setup_on_one_core = one_core;
          results = feed_files(inputs, builder, options);
          for (const auto& in : inputs) ::close(in.fd);
        });
        CHECK(got == expected);
        REQUIRE(results.size() == paths.size());
        for (size_t i = 0; i < paths.size(); ++i) {
          uint64_t lines = split_lines(contents[i], kDefaultMaxLine, [](const Line&) {});
          CHECK(results[i].lines == lines);
          CHECK(results[i].error == 0);
        }
      }
    }
  }
  for (const auto& p : paths) std::remove(p.c_str());
}

TEST_CASE("an unreadable input among several fails alone") {
  std::string first = temp_file("gpu01:1:1 [0] NCCL INFO Using network IB\n");
  std::string last = temp_file("gpu02:1:1 [0] NCCL INFO Using network Socket\nx\n");
  int fds[3] = {::open(first.c_str(), O_RDONLY), ::open("/", O_RDONLY | O_DIRECTORY), ::open(last.c_str(), O_RDONLY)};
  JobModel model;
  ModelBuilder builder(model);
  std::vector<FeedInput> inputs;
  for (int fd : fds) inputs.push_back({fd, builder.add_file("f")});
  std::vector<FeedResult> results = feed_files(inputs, builder);
  for (int fd : fds) ::close(fd);
  REQUIRE(results.size() == 3);
  CHECK(results[0].error == 0);
  CHECK(results[0].lines == 1);
  CHECK(results[1].error == EISDIR);
  CHECK(results[2].error == 0);
  CHECK(results[2].lines == 2);
  CHECK(model.using_network.count("IB") == 1);
  CHECK(model.using_network.count("Socket") == 1);
  std::remove(first.c_str());
  std::remove(last.c_str());
}
