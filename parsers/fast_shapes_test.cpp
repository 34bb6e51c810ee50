#include "parsers/fast_shapes.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "parsers/envelope.h"
#include "parsers/mutation.h"
#include "parsers/nccl_patterns.h"
#include "parsers/nccl_prefix.h"
#include "parsers/simd.h"

using namespace nd;
using nd::test::mutated;

namespace {

// Payloads of every labelled real line, whatever its kind.
std::vector<std::string> labelled_payloads() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(fs::path(ND_SOURCE_ROOT) / "testdata" / "lines")) {
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::string text = line.substr(line.find('\t') + 1);
      HeaderScan scan = scan_nccl_headers(text);
      out.push_back(scan.count ? std::string(scan.headers[0].payload) : text);
    }
  }
  return out;
}

std::string describe(bool matched, const ConnectionCaptures& c) {
  if (!matched) return "no match";
  std::string s;
  for (std::string_view f : {c.keyword, c.channel, c.conn, c.sender, c.sender_bracket, c.receiver,
                             c.receiver_bracket, c.direction, c.transport}) {
    s += "<" + std::string(f) + ">";
  }
  return s;
}

void check_same(const std::string& msg) {
  ConnectionCaptures fast, re2;
  bool a = match_connection(msg, fast);
  bool b = match_connection_re2(msg, re2);
  INFO("message: " << msg);
  CHECK(describe(a, fast) == describe(b, re2));
}

std::string describe(bool matched, const InitCaptures& c) {
  if (!matched) return "no match";
  std::string s;
  for (std::string_view f : {c.api, c.comm, c.rank, c.nranks, c.cuda_dev, c.nvml_dev, c.bus_id, c.comm_id, c.phase}) {
    s += "<" + std::string(f) + ">";
  }
  return s;
}

void check_same_init(const std::string& msg) {
  InitCaptures fast, re2;
  bool a = match_init(msg, fast);
  bool b = match_init_re2(msg, re2);
  INFO("message: " << msg);
  CHECK(describe(a, fast) == describe(b, re2));
}


}  // namespace

TEST_CASE("find_nccl_word finds \" NCCL \" like string_view::find") {
  const std::string_view cases[] = {
      "gpu01:1:1 [0] NCCL INFO x", " NCCL ", "NCCL INFO", "a NCCL", "a  NCCL  b", "NNNN NCCL NCCL x",
      "x NCC NCCL", "", "N", " N", "host NCCLX NCCL y", "AllReduce: opCount 0 comm 0x55 [nranks=4]"};
  for (auto s : cases) {
    for (size_t from = 0; from <= s.size() + 1; ++from) {
      INFO(s << " from " << from);
      CHECK(find_nccl_word(s, from) == s.find(" NCCL ", from));
    }
  }
}

TEST_CASE("per-operation lines of COLL and TUNING are recognised on their first bytes") {
  // NCCL 2.18.3 COLL, 2.20-2.22 TUNING, 2.23 TUNING, 2.24+ TUNING.
  CHECK(is_per_operation("AllReduce: opCount 0 sendbuff 0x7f2f3a000000 recvbuff 0x7f2f3a000000 count 262144 "
                         "datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=4] stream 0x55d786a0f720"));
  CHECK(is_per_operation("ReduceScatter: opCount 1a sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0"));
  CHECK(is_per_operation("4194304 Bytes -> Algo 1 proto 2 time 38.400002"));
  CHECK(is_per_operation("AllReduce: 4194304 Bytes -> Algo 1 proto 2 time 38.400002"));
  CHECK(is_per_operation("AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31}"));
  CHECK_FALSE(is_per_operation("Ring 00 : 0 1 2 3"));
  CHECK_FALSE(is_per_operation("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"));
  CHECK_FALSE(is_per_operation("AllReduce: opCount"));
  CHECK_FALSE(is_per_operation("AllReduce:opCount 0"));
  CHECK_FALSE(is_per_operation("Using network IB"));
  CHECK_FALSE(is_per_operation("4 coll channels, 0 nvls channels, 8 p2p channels, 2 p2p channels per peer"));
  CHECK_FALSE(is_per_operation(": opCount 0"));
  CHECK_FALSE(is_per_operation(""));
}

TEST_CASE("the hand connection matcher agrees with the RE2 pattern on every labelled line") {
  auto payloads = labelled_payloads();
  REQUIRE(payloads.size() >= 40);
  size_t connections = 0;
  for (const auto& p : payloads) {
    check_same(p);
    ConnectionCaptures c;
    connections += match_connection(p, c);
  }
  CHECK(connections >= 10);
}

TEST_CASE("the hand connection matcher agrees with the RE2 pattern on edge cases") {
  const char* cases[] = {
      "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA",
      "Ring 00 : 31 -> 0 [receive] via NET/IB/0",
      "Ring 00 : 0[0] -> 1[1] via P2P/IPC",
      "Channel 01 : 3[3] -> 0[0] via SHM/direct/direct  \r ",
      "Channel 01 : 3[3] -> 0[0] via  ",
      "Channel 01 : 3[3] -> 0[0] via ",
      "Channel 01 : 3[3] -> 0[0] via \n",
      "Channel 01 : 3[3] -> 0[0] via a\nb",
      "Channel 01 : 3[3] -> 0[0] via a \n ",
      "Channel 01 : 3[zz] -> 0[0] via P2P",
      "Channel 01 : 3[] -> 0[0] via P2P",
      "Channel 01 : 3[3 -> 0[0] via P2P",
      "Channel 01 : 3[3] -> 0[0] [sendx] via P2P",
      "Channel 01 : 3[3] -> 0[0] [send]via P2P",
      "Channel 01 : 3[3] -> 0[0] [send] [send] via P2P",
      "Channel 01/ : 3[3] -> 0[0] via P2P",
      "Channel /1 : 3[3] -> 0[0] via P2P",
      "Channel 1/2/3 : 3 -> 0 via P2P",
      "Channel 99999999999999999999 : 3 -> 0 via P2P",
      "Channel 00 : 0[dead] -> 1[BEEF] via NET/Socket/1",
      "Channel 00 : 0 -> 1 via via via",
      "Ring  00 : 0 -> 1 via P2P",
      "Ringo 00 : 0 -> 1 via P2P",
      "Channel 00 :  0 -> 1 via P2P",
      "Channel 00 : 0 ->  1 via P2P",
      "Channel 00 : 0 -> 1  via P2P",
      "Channel 00 : 0 -> 1 via \xff\xfe",
  };
  for (const char* c : cases) check_same(c);
  check_same(std::string("Channel 00 : 0 -> 1 via P2P\0x", 29));
}

TEST_CASE("the hand connection matcher agrees with the RE2 pattern on mutated lines") {
  auto payloads = labelled_payloads();
  std::vector<std::string> seeds;
  for (const auto& p : payloads) {
    ConnectionCaptures c;
    if (match_connection(p, c)) seeds.push_back(p);
  }
  REQUIRE(!seeds.empty());
  // The bytes that matter to the pattern, and a few that do not.
  const std::string alphabet = " []/:->0123456789abcdefABCDEFsendreceiveviaRingChannel\t\r\n\f\v\x01\xff";
  std::mt19937 rng(20261129);
  for (int i = 0; i < 50000; ++i) check_same(mutated(seeds[rng() % seeds.size()], alphabet, rng));
}

TEST_CASE("the hand init matcher agrees with the RE2 pattern on labelled lines and edge cases") {
  size_t inits = 0;
  for (const auto& p : labelled_payloads()) {
    check_same_init(p);
    InitCaptures c;
    inits += match_init(p, c);
  }
  CHECK(inits >= 5);
  const char* cases[] = {
      // 2.4-2.8, 2.9+, 2.12+ commId, 2.18+ API names, 2.19+ splits, 2.21+ [Rank n], 2.23+ localSize/used.
      "comm 0x7f3fd4001980 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "comm 0x7f3fd4001980 rank 0 nranks 2 cudaDev 0 busId 1a000 - Init COMPLETE",
      "comm 0x55d7869cef50 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x52e965372ad155ed - Init START",
      "ncclCommInitRank comm 0x55 rank 3 nranks 8 cudaDev 3 nvmlDev 3 busId 3b000 commId 0xabc - Init COMPLETE",
      "ncclCommSplit comm 0x5 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 101c0 parent 0x4 splitCount 1 color 0 key 1- Init START",
      "[Rank 0] ncclCommInitRankConfig comm 0x5 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 101c0 commId 0x52 - Init START",
      "ncclCommInitRank comm 0x5 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 localSize 8 used 1234 bytes - Init COMPLETE",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 localSize 8 used 12 bytes commId 0x1 localSize 4 used 5 bytes - Init COMPLETE",
      "comm 0x5 rank 0 nranks 8 cudaDev -1 nvmlDev -1 - Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 parent 0x4- Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 parent 0x4-- Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 parent a-b- Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 parent - Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 parent 0x4 splitCount 2 childCount 3 color -1 key 0 - Init STARTED",
      "comm comm 0x5 rank 0 nranks 8 cudaDev 0 - Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 - Init",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 -Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0  - Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 nvmlDev x - Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 busId 18000z - Init START",
      "comm 0x5 rank 0 nranks 8 cudaDev 0 used 5 - Init START",
      "comm 0x5 rank x nranks 8 cudaDev 0 - Init START",
      "comm  rank 0 nranks 8 cudaDev 0 - Init START",
      "[Rank 5]comm 0x5 rank 0 nranks 8 cudaDev 0 - Init START",
      "[Rank ] comm 0x5 rank 0 nranks 8 cudaDev 0 - Init START",
      "api\tcomm 0x5 rank 0 nranks 8 cudaDev 0 - Init START",
      "comm 0x5\xff rank 0 nranks 8 cudaDev 0 parent \xfe- Init COMPLETE",
      "",
      "comm",
  };
  for (const char* c : cases) check_same_init(c);
}

TEST_CASE("the hand init matcher agrees with the RE2 pattern on mutated lines") {
  std::vector<std::string> seeds;
  for (const auto& p : labelled_payloads()) {
    InitCaptures c;
    if (match_init(p, c)) seeds.push_back(p);
  }
  seeds.push_back("ncclCommSplit comm 0x5 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 101c0 parent 0x4 splitCount 1 "
                  "childCount 2 color 0 key 1 commId 0x9 localSize 2 used 77 bytes - Init START");
  const std::string alphabet = " []-0123456789abcdefxABCDEF\t\r\n\f\v\xff" "commrankbusIdnvmlDevInitSTARTCOMPLETE";
  std::mt19937 rng(20261204);
  for (int i = 0; i < 50000; ++i) check_same_init(mutated(seeds[rng() % seeds.size()], alphabet, rng));
}

namespace {

std::string view_or_none(bool matched, std::initializer_list<std::string_view> parts) {
  if (!matched) return "no match";
  std::string s;
  for (std::string_view p : parts) s += "<" + std::string(p) + ">";
  return s;
}

void check_same_network_lines(const std::string& msg) {
  INFO("message: " << msg);
  re2::StringPiece a, b;
  std::string_view name, list;
  bool fast = match_net_using(msg, name, list);
  bool slow = RE2::FullMatch(msg, pattern(PatternKind::NetUsing), &a, &b);
  CHECK(view_or_none(fast, {name, list}) ==
        view_or_none(slow, {std::string_view(a.data(), a.size()), std::string_view(b.data(), b.size())}));
  fast = match_using_network(msg, name);
  slow = RE2::FullMatch(msg, pattern(PatternKind::UsingNetwork), &a);
  CHECK(view_or_none(fast, {name}) == view_or_none(slow, {std::string_view(a.data(), a.size())}));
}

}  // namespace

TEST_CASE("the hand NET/... Using and Using network matchers agree with their RE2 patterns") {
  const std::vector<std::string> seeds = {
      "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.4.19<0>",
      "NET/Socket : Using [0]eth0:10.0.0.3<0>",
      "NET/IB: Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.10<0>",
      "NET/AWS Libfabric : Using 4 devices",
      "NET/OFI : Using",
      "NET/IB:x : Using a",
      "NET/ : Using x",
      "NET/: Using x",
      "NET/a: : Using x",
      "NET/IB  : Using x",
      "NET/IB\t: Using x",
      "NET/IB : Using x\ny",
      "NET/IB : Usingx",
      "Using network IB",
      "Using network Socket  ",
      "Using network  ",
      "Using network \n",
      "Using network a\nb",
      "Using network AWS Libfabric\r\n",
      "Using network ",
  };
  for (const auto& s : seeds) check_same_network_lines(s);
  const std::string alphabet = " :/;[]NETUsingnetwork\t\r\n\f\v\xff";
  std::mt19937 rng(4);
  for (int i = 0; i < 50000; ++i) check_same_network_lines(mutated(seeds[rng() % seeds.size()], alphabet, rng));
}

TEST_CASE("the forward COLL header reader agrees with the backward one") {
  const std::string op = " NCCL INFO AllReduce: opCount 3f sendbuff 0x7f2f3a000000 recvbuff 0x7f2f3a000000 count "
                         "262144 datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=16] stream 0x55d786a0f720";
  // NCCL 2.18.3 COLL lines with the hosts that clusters use.
  for (std::string host : {"gpu01", "node0751", "gpu-st-p4d-24xlarge-1", "a", "dgx_h100.cluster-7"}) {
    std::string line = host + ":225067:225067 [3]" + op;
    CAPTURE(line);
    CHECK(leading_per_operation_host(line, line.find(" NCCL ")) == host.size());
    auto slow = per_operation_host(line, line.find(" NCCL "));
    REQUIRE(slow);
    CHECK(*slow == host);
  }
  // Shapes the forward reader must leave to the backward one, or refuse.
  CHECK(leading_per_operation_host("[1,0]<stdout>:gpu01:2771:2771 [0]" + op, 33) == 0);
  CHECK(*per_operation_host("[1,0]<stdout>:gpu01:2771:2771 [0]" + op, 33) == "gpu01");
  CHECK(leading_per_operation_host("gpu01:2771:2771 [0]" + op.substr(0, 40), 19) == 0);
  CHECK(leading_per_operation_host("gpu01::2771 [0]" + op, 15) == 0);
  CHECK(leading_per_operation_host("gpu01:2771:2771 [0] NCCL WARN" + op.substr(10), 19) == 0);
  CHECK(leading_per_operation_host("gpu 01:2771:2771 [0]" + op, 20) == 0);

  // Every mutation of a COLL line: where the forward reader answers, the
  // backward one gives the same host at the line's start.
  std::mt19937 rng(11);
  const std::string base = "node0751:225067:225067 [3]" + op;
  const std::string pool = "0123456789:[] N-._aZ\t";
  size_t answered = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = base;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k) line[rng() % 70] = pool[rng() % pool.size()];
    if (rng() % 4 == 0) line.erase(rng() % 40, 1 + rng() % 3);
    for (size_t marker = line.find(" NCCL "); marker != std::string::npos; marker = line.find(" NCCL ", marker + 1)) {
      size_t fast = leading_per_operation_host(line, marker);
      if (fast == 0) continue;
      ++answered;
      auto slow = per_operation_host(line, marker);
      INFO(line);
      REQUIRE(slow);
      CHECK(slow->data() == line.data());
      CHECK(slow->size() == fast);
    }
  }
  CHECK(answered > 1000);
}

TEST_CASE("the plain Open MPI tag reader agrees with the general one") {
  const std::string header = "node0751:225067:225067 [3] NCCL INFO AllReduce: opCount 3f";
  CHECK(plain_ompi_tag_length("[1,5]<stdout>:" + header) == 14);
  CHECK(plain_ompi_tag_length("[1,5]<stderr>: " + header) == 15);
  CHECK(plain_ompi_tag_length("[23,8191]<stdout>:" + header) == 18);
  CHECK(ompi_tag_length("[23,8191]<stdout>:" + header) == 18);
  CHECK(plain_ompi_tag_rank("[23,8191]<stdout>:" + header) == 8191);
  CHECK(plain_ompi_tag_rank("[1,0]<stdout>:" + header) == 0);
  CHECK(plain_ompi_tag_rank("[1,123456789]<stderr>: " + header) == 123456789);
  CHECK(strip_envelope("[1,123456789]<stderr>: " + header).launcher_rank == 123456789u);
  // Forms it leaves to the general reader, which takes them.
  for (std::string tag : {"[1,0][node0751:2771]<stdout>:", "[prterun-h-1@1,0]<stdout>: ", "[0]<stdout>: ",
                          "[1,0]<stddiag>:", "[1,1234567890]<stdout>:"}) {
    CAPTURE(tag);
    CHECK(plain_ompi_tag_length(tag + header) == 0);
    CHECK(ompi_tag_length(tag + header) == tag.size());
  }
  CHECK(plain_ompi_tag_length("[1,5]<stdout>") == 0);
  CHECK(plain_ompi_tag_length("[111111111111111111") == 0);
  CHECK(plain_ompi_tag_length("[Thu May  7 10:39:20 2020][1,0]<stdout>:" + header) == 0);

  // Every mutation of a tagged line: where the plain reader answers, the
  // general one gives the same length.
  std::mt19937 rng(17);
  const std::string base = "[1,4095]<stdout>:" + header;
  const std::string pool = "0123456789,[]<>:sx -";
  size_t answered = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = base;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k) line[rng() % 20] = pool[rng() % pool.size()];
    if (rng() % 4 == 0) line.erase(rng() % 20, 1 + rng() % 3);
    if (rng() % 8 == 0) line.resize(rng() % line.size());
    size_t plain = plain_ompi_tag_length(line);
    if (plain == 0) continue;
    ++answered;
    INFO(line);
    CHECK(plain == ompi_tag_length(line));
  }
  CHECK(answered > 1000);
}

TEST_CASE("ND_SIMD picks the code the 64-byte scans run") {
  std::string_view forced = std::getenv("ND_SIMD") ? std::getenv("ND_SIMD") : "";
  std::string_view running = simd_implementation();
#ifdef ND_SIMD_SCALAR_ONLY
  forced = "scalar";  // nothing else was compiled
#endif
  if (forced == "scalar") {
    CHECK(running == "scalar");
  } else if (forced == "portable") {
    CHECK(running != "avx2");
  } else {
    CHECK((running == "avx2" || running == "sse2" || running == "neon" || running == "scalar"));
  }
#if defined(ND_HAVE_NEON)
  // Every aarch64 processor has NEON: only ND_SIMD=scalar leaves it.
  if (forced != "scalar") CHECK(running == "neon");
#elif defined(__x86_64__)
  if (forced != "scalar") CHECK(running != "scalar");  // SSE2 at least
#endif
}

namespace {

// Each capture group as <offset:text>, or <-> when it took no part.
std::string describe_groups(std::string_view msg, std::initializer_list<std::string_view> groups) {
  std::string s;
  for (std::string_view g : groups) {
    s += g.data() == nullptr ? "<->" : "<" + std::to_string(g.data() - msg.data()) + ":" + std::string(g) + ">";
  }
  return s;
}

std::string re2_groups(PatternKind kind, bool whole, std::string_view msg) {
  const RE2& re = pattern(kind);
  int n = re.NumberOfCapturingGroups();
  std::vector<re2::StringPiece> g(static_cast<size_t>(n) + 1);
  if (!re.Match(re2::StringPiece(msg.data(), msg.size()), 0, msg.size(), whole ? RE2::ANCHOR_BOTH : RE2::UNANCHORED,
                g.data(), n + 1)) {
    return "no match";
  }
  std::string s;
  for (int i = 1; i <= n; ++i) {
    const re2::StringPiece& p = g[static_cast<size_t>(i)];
    s += p.data() == nullptr ? "<->" : "<" + std::to_string(p.data() - msg.data()) + ":" + std::string(p.data(), p.size()) + ">";
  }
  return s;
}

// How many of the five shapes `msg` holds, checking each against its row.
int check_same_common_shapes(const std::string& msg) {
  INFO("message: " << msg);
  int matched = 0;
  std::string_view a, b;
  bool ok = match_version(msg, a, b);
  matched += ok;
  CHECK((ok ? describe_groups(msg, {a, b}) : "no match") == re2_groups(PatternKind::Version, false, msg));
  ok = match_cuda_driver(msg, a);
  matched += ok;
  CHECK((ok ? describe_groups(msg, {a}) : "no match") == re2_groups(PatternKind::CudaDriver, false, msg));
  CommShapeCaptures shape;
  ok = match_comm_shape(msg, shape);
  matched += ok;
  CHECK((ok ? describe_groups(msg, {shape.comm, shape.rank, shape.nranks, shape.nnodes, shape.local_ranks,
                                    shape.local_rank})
            : "no match") == re2_groups(PatternKind::CommShape, false, msg));
  GraphRingCaptures ring;
  ok = match_graph_ring(msg, ring);
  matched += ok;
  CHECK((ok ? describe_groups(msg, {ring.channel, ring.prev, ring.me, ring.next}) : "no match") ==
        re2_groups(PatternKind::GraphRing, true, msg));
  RingListingCaptures listing;
  ok = match_ring_listing(msg, listing);
  matched += ok;
  CHECK((ok ? describe_groups(msg, {listing.channel, listing.count, listing.ranks, listing.dots}) : "no match") ==
        re2_groups(PatternKind::RingListing, true, msg));
  return matched;
}

}  // namespace

TEST_CASE("the version, driver, comm shape, graph ring and ring listing matchers agree with their RE2 rows") {
  std::vector<std::string> seeds;
  for (const auto& p : labelled_payloads()) {
    if (check_same_common_shapes(p) > 0) seeds.push_back(p);
  }
  CHECK(seeds.size() >= 10);
  const std::vector<std::string> cases = {
      // Version: 2.4+ banners, suffixes, CUDA with and without a minor.
      "NCCL version 2.18.3+cuda12.2",
      "NCCL version 2.4.8+cuda10.1",
      "NCCL version 2.21.5+cuda12.4 extra",
      "NCCL version 2.19.3-1+cuda12.3",
      "NCCL version 2.7.8nv+cuda11",
      "NCCL version 2.7.8+cuda",
      "NCCL version 2.7.8+cuda.1",
      "NCCL version 2.7.8+cuda11.",
      "NCCL version 2.7.8++cuda11.0",
      "NCCL version 2.7.8 +cuda11.0",
      "NCCL version 2.7.8\t+cuda11.0",
      "NCCL version 2.7.8\v+cuda11.0",
      "NCCL version 2.7",
      "NCCL version 2..8",
      "NCCL version .2.7.8",
      "NCCL version  2.7.8",
      "NCCL version 2.7.8",
      // Driver.
      "cudaDriverVersion 12040",
      "cudaDriverVersion 12040x",
      "cudaDriverVersion -1",
      "cudaDriverVersion ",
      "cudaDriverVersion  12040",
      // Comm shape, 2.9+.
      "comm 0x55d7845cef50 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0 MNNVL 0",
      "comm 0x5 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0",
      "comm 0x5 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank",
      "comm 0x5 rank 0 nRanks 8 nNodes 2 localRanks 4 localRanks 0",
      "comm 0x5\v rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0",
      "comm 0x5\t rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0",
      "comm  rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0",
      "comm 0x5 rank -1 nRanks 8 nNodes 2 localRanks 4 localRank 0",
      "comm 0x5 rank 0 nranks 8 nNodes 2 localRanks 4 localRank 0",
      // Graph ring, 2.10+.
      "Ring 00 : 7 -> 0 -> 1",
      "Ring 03 : -1 -> 0 -> -1 ",
      "Ring 03 : -1 -> 0 -> -1\r",
      "Ring 03 : -1 -> 0 -> -1 x",
      "Ring 03 : --1 -> 0 -> 1",
      "Ring 03 : - -> 0 -> 1",
      "Ring 03 : 1 -> 0 -> 1 -> 2",
      "Ring 03 :  1 -> 0 -> 1",
      "Ring : 1 -> 0 -> 1",
      "Ring 03 : 1 -> 0 ->",
      // Ring listing, 2.4-2.22 slots and 2.23+ compact ones, cut by `...`.
      "Channel 00/02 :    0   1   2   3",
      "Channel 00/32 :    0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19",
      "Channel 01/24 : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 3...",
      "Channel 01/24 : 0 1 2 3 ...",
      "Channel 01/24 : 0 1 2 3 ... ",
      "Channel 01/24 : 0 1 2 3 ...x",
      "Channel 01/24 : 0 1 2 3 ....",
      "Channel 01/24 : 0 1 2 3 .. ",
      "Channel 01/24 :...",
      "Channel 01/24 :",
      "Channel 01/24 :   ",
      "Channel 01/24 : \t",
      "Channel 01/ : 0 1",
      "Channel 01/x : 0 1",
      "Channel 01 : 0 1",
      "Channel 01/2: 0 1",
      "Channel 01/2 : 0 1x",
      "Channel 01/2 : 0\t1",
      "Channel 01/2 : 0 -1",
      "Ring 00 :    0   1",
      "Ring 00 : 7 -> 0 -> 1",
      "",
      "Channel ",
  };
  for (const auto& c : cases) {
    check_same_common_shapes(c);
    seeds.push_back(c);
  }
  const std::string alphabet = " ./-+>:0123456789x\t\r\n\f\v\xff" "NCCLversioncudaDriverVersioncommranknRanksnNodes"
                               "localRanksRingChannel...";
  std::mt19937 rng(20261205);
  for (int i = 0; i < 50000; ++i) check_same_common_shapes(mutated(seeds[rng() % seeds.size()], alphabet, rng));
}
