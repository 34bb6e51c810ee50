// libFuzzer target: arbitrary bytes as a log. Every line goes through the
// control-byte and launcher-envelope strippers, the header scanner and the
// classifier, and the whole input through the model builder, line by line and
// in parallel chunks. Checks the invariants the fast paths rely on:
//  - the hand matchers agree with their RE2 rows,
//  - header payloads and envelopes are views inside their line,
//  - the forward COLL header reader agrees with the backward one, the
//    forward Trees reader with the general one, and the vectorised byte
//    marks with the portable ones,
//  - the chunked feeder, from a pipe and from a file whose last chunks a
//    waiting helper parses ahead, builds the same counters as add_line().

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "parsers/byte_marks.h"
#include "parsers/envelope.h"
#include "parsers/fast_shapes.h"
#include "parsers/line_classifier.h"
#include "parsers/line_splitter.h"
#include "parsers/nccl_patterns.h"
#include "parsers/nccl_prefix.h"
#include "parsers/net_devices.h"
#include "src/model/line_feeder.h"
#include "src/model/model_builder.h"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "invariant broken: %s\n", what);
    abort();
  }
}

bool inside(std::string_view part, std::string_view whole) {
  return part.empty() || (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

// A hand matcher's groups against its RE2 row's: the same text at the same
// place, and the same groups taking no part.
bool same_groups(std::string_view msg, nd::PatternKind kind, bool whole, bool matched,
                 std::initializer_list<std::string_view> groups) {
  const RE2& re = nd::pattern(kind);
  re2::StringPiece g[8];
  size_t n = groups.size();
  bool re2_matched = re.Match(re2::StringPiece(msg.data(), msg.size()), 0, msg.size(),
                              whole ? RE2::ANCHOR_BOTH : RE2::UNANCHORED, g, static_cast<int>(n) + 1);
  if (matched != re2_matched) return false;
  size_t i = 1;
  for (std::string_view v : groups) {
    if (matched && (v.data() != g[i].data() || v.size() != g[i].size())) return false;
    ++i;
  }
  return true;
}

// Where a forward header reader answers, the line has the envelope it gives
// (none, or mpirun's tag alone) and holds that one header, as the full path
// reads it.
void forward_header(std::string_view line) {
  size_t marker = nd::find_nccl_word(line);
  if (marker == std::string_view::npos || nd::find_nccl_word(line, marker + 11) != std::string_view::npos ||
      nd::has_control_or_cr(line)) {
    return;
  }
  nd::NcclHeader fast;
  nd::Envelope fast_env;
  if (nd::leading_nccl_header(line, marker, fast)) {
    fast_env.payload = line;
  } else if (!nd::tagged_leading_nccl_header(line, marker, fast_env, fast)) {
    return;
  }
  nd::Envelope env = nd::strip_envelope(line);
  require(env.payload.data() == fast_env.payload.data() && env.payload.size() == fast_env.payload.size() &&
              env.launcher == fast_env.launcher && env.launcher_rank == fast_env.launcher_rank &&
              env.rank_from == fast_env.rank_from && env.launcher_host.empty() &&
              env.prefix_length == fast_env.prefix_length,
          "the forward header reader and the stripper see different envelopes");
  nd::HeaderScan scan = nd::scan_nccl_headers(env.payload);
  const nd::NcclHeader& full = scan.headers[0];
  require(scan.count == 1 && !scan.spliced && full.host.data() == fast.host.data() &&
              full.host.size() == fast.host.size() && full.host_form == fast.host_form && full.pid == fast.pid &&
              full.tid == fast.tid && full.dev == fast.dev && full.location == fast.location &&
              full.level == fast.level && full.payload.data() == fast.payload.data() &&
              full.payload.size() == fast.payload.size() && full.column == fast.column,
          "forward and full header readers disagree");
}

// Where the forward Trees reader answers, the general one gives the same entries.
void trees(std::string_view line) {
  size_t at = line.find("Trees ");
  if (at == std::string_view::npos) return;
  std::string_view rest = line.substr(at + 6);
  nd::TreesEvent fast, general;
  bool read = nd::parse_trees(rest, fast);
  require(read == nd::parse_trees_general(rest, general), "forward and general Trees readers disagree");
  require(!read || fast.entries.size() == general.entries.size(), "Trees readers find different entries");
  for (size_t i = 0; read && i < fast.entries.size(); ++i) {
    const nd::TreeEntry& a = fast.entries[i];
    const nd::TreeEntry& b = general.entries[i];
    require(a.channel == b.channel && a.me == b.me && a.up == b.up && a.down[0] == b.down[0] &&
                a.down[1] == b.down[1] && a.down[2] == b.down[2],
            "Trees readers read an entry differently");
  }
}

void one_line(std::string_view line) {
  std::string scratch;
  std::string_view clean = nd::strip_control(line, scratch);
  nd::Envelope env = nd::strip_envelope(clean);
  require(inside(env.payload, clean), "envelope payload outside the line");
  nd::HeaderScan scan = nd::scan_nccl_headers(env.payload);
  require(scan.count <= nd::kMaxHeadersPerLine, "too many headers");
  for (size_t i = 0; i < scan.count; ++i) {
    const nd::NcclHeader& h = scan.headers[i];
    require(inside(h.payload, env.payload) && inside(h.host, env.payload), "header outside the line");
    (void)nd::classify(h);
    nd::ConnectionCaptures fast, re2;
    bool a = nd::match_connection(h.payload, fast);
    require(a == nd::match_connection_re2(h.payload, re2) && (!a || fast == re2),
            "connection matcher and RE2 disagree");
    nd::InitCaptures init_fast, init_re2;
    bool ia = nd::match_init(h.payload, init_fast);
    require(ia == nd::match_init_re2(h.payload, init_re2) && (!ia || init_fast == init_re2),
            "init matcher and RE2 disagree");
    {
      re2::StringPiece net, list_re2;
      std::string_view name, list;
      bool by_hand = nd::match_net_using(h.payload, name, list);
      bool by_re2 = RE2::FullMatch(re2::StringPiece(h.payload.data(), h.payload.size()),
                                   nd::pattern(nd::PatternKind::NetUsing), &net, &list_re2);
      require(by_hand == by_re2 && (!by_hand || (name == std::string_view(net.data(), net.size()) &&
                                                 list == std::string_view(list_re2.data(), list_re2.size()))),
              "NET/... Using matcher and RE2 disagree");
      by_hand = nd::match_using_network(h.payload, name);
      by_re2 = RE2::FullMatch(re2::StringPiece(h.payload.data(), h.payload.size()),
                              nd::pattern(nd::PatternKind::UsingNetwork), &net);
      require(by_hand == by_re2 && (!by_hand || name == std::string_view(net.data(), net.size())),
              "Using network matcher and RE2 disagree");
    }
    {
      std::string_view m = h.payload, version, cuda;
      bool ok = nd::match_version(m, version, cuda);
      require(same_groups(m, nd::PatternKind::Version, false, ok, {version, cuda}),
              "version matcher and RE2 disagree");
      ok = nd::match_cuda_driver(m, version);
      require(same_groups(m, nd::PatternKind::CudaDriver, false, ok, {version}), "driver matcher and RE2 disagree");
      nd::CommShapeCaptures c;
      ok = nd::match_comm_shape(m, c);
      require(same_groups(m, nd::PatternKind::CommShape, false, ok,
                          {c.comm, c.rank, c.nranks, c.nnodes, c.local_ranks, c.local_rank}),
              "comm shape matcher and RE2 disagree");
      nd::GraphRingCaptures r;
      ok = nd::match_graph_ring(m, r);
      require(same_groups(m, nd::PatternKind::GraphRing, true, ok, {r.channel, r.prev, r.me, r.next}),
              "graph ring matcher and RE2 disagree");
      nd::RingListingCaptures l;
      ok = nd::match_ring_listing(m, l);
      require(same_groups(m, nd::PatternKind::RingListing, true, ok, {l.channel, l.count, l.ranks, l.dots}),
              "ring listing matcher and RE2 disagree");
    }
    auto devices = nd::parse_net_devices(h.payload);
    auto devices_re2 = nd::parse_net_devices_re2(h.payload);
    require(devices.size() == devices_re2.size(), "net device scan and RE2 find different devices");
    for (size_t d = 0; d < devices.size(); ++d) {
      require(devices[d].index == devices_re2[d].index && devices[d].name == devices_re2[d].name &&
                  devices[d].port == devices_re2[d].port && devices[d].link_layer == devices_re2[d].link_layer &&
                  devices[d].address == devices_re2[d].address,
              "net device scan and RE2 read a device differently");
    }
  }
  if (size_t plain = nd::plain_ompi_tag_length(clean)) {
    require(plain == nd::ompi_tag_length(clean), "plain and general Open MPI tag readers disagree");
  }
  (void)nd::classify_message(clean);
  require(nd::find_nccl_word(clean) == clean.find(" NCCL "), "find_nccl_word differs from find");
  for (size_t m = clean.find(" NCCL "); m != std::string_view::npos; m = clean.find(" NCCL ", m + 1)) {
    if (size_t fast = nd::leading_per_operation_host(clean, m)) {
      auto slow = nd::per_operation_host(clean, m);
      require(slow && slow->data() == clean.data() && slow->size() == fast,
              "forward and backward COLL header readers disagree");
    }
  }
  forward_header(clean);
  trees(clean);
}

}  // namespace

// The vectorised byte marks against the portable ones, position by position.
void byte_marks(std::string_view input) {
  nd::ByteMarks fast, portable;
  fast.scan(input.data(), input.size());
  portable.scan_portable(input.data(), input.size());
  for (size_t from = 0; from <= input.size(); ++from) {
    require(fast.next_newline(from) == portable.next_newline(from), "byte marks disagree on newlines");
    size_t to = std::min(input.size(), from + 100);
    require(fast.next_capital_n(from, to) == portable.next_capital_n(from, to), "byte marks disagree on 'N'");
    require(fast.has_control(from, to) == portable.has_control(from, to), "byte marks disagree on control bytes");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  byte_marks(input);
  size_t start = 0;
  while (start <= input.size()) {
    size_t nl = input.find('\n', start);
    std::string_view line = input.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    one_line(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }

  // The whole input as a log, split at once and added line by line, and
  // through the chunked feeder reading a pipe.
  nd::JobModel by_line;
  {
    nd::ModelBuilder builder(by_line);
    uint32_t file = builder.add_file("fuzz.log");
    size_t cap = std::min<size_t>(size, 60000);  // fits the pipe buffer
    nd::split_lines(input.substr(0, cap), 100, [&](const nd::Line& line) { builder.add_line(file, line); });
    builder.finish();

    // Read as a regular file (a memfd) the chunks are taken by offset, and a
    // helper waiting out setup lines parses the last ones ahead of their turn.
    auto require_same_model = [&](int fd, bool setup_on_one_core) {
      nd::JobModel chunked;
      nd::ModelBuilder b2(chunked);
      uint32_t f2 = b2.add_file("fuzz.log");
      nd::FeedOptions options;
      options.threads = 2;
      options.chunk = 64;
      options.max_line = 100;
      options.setup_on_one_core = setup_on_one_core;
      nd::feed_lines(fd, f2, b2, options);
      close(fd);
      b2.finish();
      require(chunked.counters.lines == by_line.counters.lines, "line counts differ");
      require(chunked.counters.nccl_lines == by_line.counters.nccl_lines, "NCCL line counts differ");
      require(chunked.counters.info_lines == by_line.counters.info_lines &&
                  chunked.counters.warn_lines == by_line.counters.warn_lines &&
                  chunked.counters.truncated_lines == by_line.counters.truncated_lines &&
                  chunked.counters.spliced_lines == by_line.counters.spliced_lines,
              "INFO, WARN, cut or spliced line counts differ");
      require(chunked.counters.connection_lines == by_line.counters.connection_lines, "connection counts differ");
      require(chunked.hosts.names() == by_line.hosts.names(), "hosts differ");
      require(chunked.comms.size() == by_line.comms.size(), "communicators differ");
      require(chunked.framework_errors.size() == by_line.framework_errors.size(), "framework errors differ");
      for (size_t i = 0; i < chunked.framework_errors.size(); ++i) {
        const auto& x = chunked.framework_errors[i];
        const auto& y = by_line.framework_errors[i];
        require(x.kind == y.kind && x.text == y.text && x.line.line == y.line.line, "framework errors differ");
      }
    };
    int fds[2];
    if (pipe(fds) != 0) return 0;
    if (write(fds[1], data, cap) != static_cast<ssize_t>(cap)) return 0;
    close(fds[1]);
    require_same_model(fds[0], false);
    int mem = memfd_create("fuzz.log", MFD_CLOEXEC);
    if (mem < 0) return 0;
    if (write(mem, data, cap) != static_cast<ssize_t>(cap) || lseek(mem, 0, SEEK_SET) != 0) {
      close(mem);
      return 0;
    }
    require_same_model(mem, true);
  }
  return 0;
}
