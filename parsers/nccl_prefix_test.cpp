#include "parsers/nccl_prefix.h"

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "parsers/envelope.h"
#include "parsers/fast_shapes.h"
#include "parsers/mutation.h"

using namespace nd;

namespace {

// Where leading_nccl_header() or tagged_leading_nccl_header() answers for a
// line whose first " NCCL " is its only one from the level word on, the
// line is what the full path would read the same: the envelope the forward
// reader gives (none, or the tag alone), and that one header. Returns
// whether it answered.
bool forward_header_agrees(const std::string& line) {
  size_t marker = find_nccl_word(line);
  if (marker == std::string::npos || find_nccl_word(line, marker + 11) != std::string::npos ||
      has_control_or_cr(line)) {
    return false;
  }
  NcclHeader fast;
  Envelope fast_env;
  if (leading_nccl_header(line, marker, fast)) {
    fast_env.payload = line;
  } else if (!tagged_leading_nccl_header(line, marker, fast_env, fast)) {
    return false;
  }
  INFO(line);
  Envelope env = strip_envelope(line);
  CHECK(env.payload.data() == fast_env.payload.data());
  CHECK(env.payload.size() == fast_env.payload.size());
  CHECK(env.launcher == fast_env.launcher);
  CHECK(env.launcher_rank == fast_env.launcher_rank);
  CHECK(env.rank_from == fast_env.rank_from);
  CHECK(env.launcher_host.empty());
  CHECK(fast_env.launcher_host.empty());
  CHECK(env.prefix_length == fast_env.prefix_length);
  HeaderScan scan = scan_nccl_headers(env.payload);
  REQUIRE(scan.count == 1);
  CHECK_FALSE(scan.spliced);
  const NcclHeader& full = scan.headers[0];
  CHECK(full.host.data() == fast.host.data());
  CHECK(full.host.size() == fast.host.size());
  CHECK(full.host_form == fast.host_form);
  CHECK(full.pid == fast.pid);
  CHECK(full.tid == fast.tid);
  CHECK(full.dev == fast.dev);
  CHECK(full.location == fast.location);
  CHECK(full.level == fast.level);
  CHECK(full.payload.data() == fast.payload.data());
  CHECK(full.payload.size() == fast.payload.size());
  CHECK(full.column == fast.column);
  return true;
}

}  // namespace

TEST_CASE("prefix lexer splits host, pid, tid, device and level") {
  auto scan = scan_nccl_headers("node01:2771:2801 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1");
  REQUIRE(scan.count == 1);
  const auto& h = scan.headers[0];
  CHECK(h.host == "node01");
  CHECK(h.pid == 2771);
  CHECK(h.tid == 2801);
  CHECK(h.dev == 0);
  CHECK(h.level == Level::Info);
  CHECK(h.payload == "Ring 00 : 1 -> 0 -> 1");
  CHECK_FALSE(scan.spliced);
}

TEST_CASE("WARN location may hold spaces and colons (NCCL 2.27.7 aws-ofi plugin)") {
  auto scan = scan_nccl_headers(
      "[2026-01-02 10:24:27] ip-172-31-3-153:35115:35469 [2] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208 "
      "NCCL WARN NET/OFI Failed to initialize sendrecv protocol");
  REQUIRE(scan.count == 1);
  const auto& h = scan.headers[0];
  CHECK(h.host == "ip-172-31-3-153");
  CHECK(h.dev == 2);
  CHECK(h.level == Level::Warn);
  CHECK(h.location == "int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208");
  CHECK(h.payload == "NET/OFI Failed to initialize sendrecv protocol");
}

TEST_CASE("NCCL 2.30.7 WARN with function location") {
  auto scan = scan_nccl_headers(
      "[2026-06-10 09:15:02] gpu07:51234:51290 [3] transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError) NCCL WARN "
      "NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_RETRY_EXC_ERR(12)");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu07");
  CHECK(scan.headers[0].location == "transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError)");
}

TEST_CASE("CALL lines have no device bracket") {
  auto scan = scan_nccl_headers("gpu01:100:100 NCCL CALL ncclAllReduce(0x1,0x2,1,7,0,0x3,0x4)");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].level == Level::Call);
  CHECK(scan.headers[0].dev == -1);
}

TEST_CASE("a spliced line yields both headers, the first cut short") {
  auto scan = scan_nccl_headers(
      "gpu11:2771:2771 [0] NCCL INFO Connected allgpu12:2882:2882 [1] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/1");
  REQUIRE(scan.count == 2);
  CHECK(scan.spliced);
  // The glued "all" cannot be told from the host name here; the model
  // resolves "allgpu12" against hosts it already knows.
  CHECK(scan.headers[0].payload == "Connected ");
  CHECK(scan.headers[1].host == "allgpu12");
  CHECK(scan.headers[1].payload == "Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/1");
}

TEST_CASE("text glued in front of a header is not part of the host") {
  auto scan = scan_nccl_headers("  1%|| 24/1752 [01:08<1:22:56,  2.88s/it]gpu12:2882:2882 [1] NCCL INFO Using network IB");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu12");
  CHECK(scan.headers[0].column > 0);
  // A code span or bold text opened in the prose before it.
  for (std::string_view line : {"error log `H100-2:19989:20082 [1] NCCL INFO Using network IB",
                                "see **H100-2:19989:20082 [1] NCCL INFO Using network IB",
                                "env=H100-2:19989:20082 [1] NCCL INFO Using network IB"}) {
    CAPTURE(line);
    scan = scan_nccl_headers(line);
    REQUIRE(scan.count == 1);
    CHECK(scan.headers[0].host == "H100-2");
  }
}

TEST_CASE("a custom timestamp with colons is not taken for the header") {
  auto scan = scan_nccl_headers("10:24:27 gpu01:1:2 [0] NCCL INFO Using network IB");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu01");
}

TEST_CASE("lines that only look similar have no header") {
  CHECK(scan_nccl_headers("see the NCCL INFO lines below").count == 0);
  CHECK(scan_nccl_headers("gpu01:1:2 [x] NCCL INFO bad dev").count == 0);
  CHECK(scan_nccl_headers("gpu01:1:2 [0] NCCL INFORMATION").count == 0);
  CHECK(scan_nccl_headers("gpu01:99999999999999999999999:2 [0] NCCL INFO x").count == 0);
  CHECK(scan_nccl_headers("").count == 0);
}

TEST_CASE("pid and tid: any length that fits 64 bits, read by both header readers") {
  for (auto [ids, pid, tid] : {std::tuple{"123456789012345678:7", 123456789012345678ull, 7ull},
                               std::tuple{"9999999999999999999:0", 9999999999999999999ull, 0ull},
                               std::tuple{"1:18446744073709551615", 1ull, 18446744073709551615ull}}) {
    std::string line = std::string("gpu01:") + ids + " [0] NCCL INFO x";
    CAPTURE(line);
    auto scan = scan_nccl_headers(line);
    REQUIRE(scan.count == 1);
    CHECK(scan.headers[0].pid == pid);
    CHECK(scan.headers[0].tid == tid);
    CHECK(forward_header_agrees(line));
  }
  CHECK(scan_nccl_headers("gpu01:18446744073709551616:2 [0] NCCL INFO x").count == 0);
  NcclHeader h;
  std::string past = "gpu01:2:18446744073709551616 [0] NCCL INFO x";
  CHECK_FALSE(leading_nccl_header(past, past.find(" NCCL "), h));
}

TEST_CASE("raw banner of 2.4-2.21") {
  std::string_view rest;
  CHECK(is_raw_banner("NCCL version 2.4.8+cuda10.0", rest));
  CHECK(rest == "2.4.8+cuda10.0");
  CHECK_FALSE(is_raw_banner("NCCL version unknown", rest));
}

TEST_CASE("stand-in hosts keep pid and tid and say so (NCCL 2.19.3 excerpt shapes)") {
  auto scan = scan_nccl_headers("<cluster_name>:919:1150 [0] NCCL INFO Channel 01/0 : 8[0] -> 15[7] via P2P/IPC/read");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "<cluster_name>");
  CHECK(scan.headers[0].host_form == HostForm::Placeholder);
  CHECK(scan.headers[0].pid == 919);
  CHECK(scan.headers[0].tid == 1150);
  CHECK(scan.headers[0].dev == 0);
  CHECK(scan.headers[0].payload == "Channel 01/0 : 8[0] -> 15[7] via P2P/IPC/read");
  for (std::string_view line : {"[hostname]:921:921 [0] NCCL INFO cudaDriverVersion 12040",
                                "xxx:922:922 [0] NCCL INFO cudaDriverVersion 12040",
                                "XXXX-XXXX:922:922 [0] NCCL INFO cudaDriverVersion 12040",
                                "node-X:923:923 [1] NCCL INFO cudaDriverVersion 12040",
                                "{host}:924:924 [1] NCCL INFO cudaDriverVersion 12040",
                                "HOSTNAME:925:925 [1] NCCL INFO cudaDriverVersion 12040"}) {
    INFO(line);
    scan = scan_nccl_headers(line);
    REQUIRE(scan.count == 1);
    CHECK(scan.headers[0].host_form == HostForm::Placeholder);
    CHECK(scan.headers[0].payload == "cudaDriverVersion 12040");
  }
}

TEST_CASE("an empty host name keeps pid and tid: a stand-in for an unknown host") {
  for (std::string_view line : {":22901:22901 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/4",
                                "[1,0]<stdout>: :22901:22901 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/4"}) {
    INFO(line);
    auto scan = scan_nccl_headers(line);
    REQUIRE(scan.count == 1);
    CHECK(scan.headers[0].host == "");
    CHECK(scan.headers[0].host_form == HostForm::Placeholder);
    CHECK(scan.headers[0].pid == 22901);
    CHECK(scan.headers[0].tid == 22901);
    CHECK(scan.headers[0].payload == "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/4");
  }
  // A WARN keeps its location; a host glued to a colon is no empty host.
  auto warn = scan_nccl_headers(":51:52 [3] misc/socket.cc:42 NCCL WARN Net : Connect to 10.0.0.2<5000> failed");
  REQUIRE(warn.count == 1);
  CHECK(warn.headers[0].host_form == HostForm::Placeholder);
  CHECK(warn.headers[0].location == "misc/socket.cc:42");
  auto glued = scan_nccl_headers("a::51:52 [3] NCCL INFO x");
  CHECK((glued.count == 0 || glued.headers[0].host != ""));
}

TEST_CASE("a line number put before a line that lost its header: only before a device bracket") {
  for (std::string_view line : {"1  [4] NCCL INFO Ring 00 : 12[41000] -> 11[2d000] via P2P/IPC",
                                "117\t[4] NCCL INFO Ring 00 : 12[41000] -> 11[2d000] via P2P/IPC"}) {
    INFO(line);
    auto scan = scan_nccl_headers(line);
    REQUIRE(scan.count == 1);
    CHECK(scan.headers[0].host_form == HostForm::Absent);
    CHECK(scan.headers[0].dev == 4);
    CHECK(scan.headers[0].payload == "Ring 00 : 12[41000] -> 11[2d000] via P2P/IPC");
  }
  CHECK(scan_nccl_headers("2 NCCL INFO lines appear").count == 0);
  CHECK(scan_nccl_headers("42 GPUs, [4] NCCL INFO x").count == 0);
}

TEST_CASE("anonymised but distinct names, IP hosts and a two-digit host are names") {
  for (auto [line, host] : {std::pair{"<node1>:919:919 [0] NCCL INFO Using network IB", "<node1>"},
                            std::pair{"hostname-test:984:984 [4] NCCL INFO Using network IB", "hostname-test"},
                            std::pair{"10.0.0.1:1234:1234 [0] NCCL INFO Using network IB", "10.0.0.1"},
                            // gethostname() "10.1.2.3" cut at its first dot; tid of three digits.
                            std::pair{"10:53:323 [0] NCCL INFO Using network IB", "10"},
                            std::pair{"box-x1:53:53 [0] NCCL INFO Using network IB", "box-x1"}}) {
    INFO(line);
    auto scan = scan_nccl_headers(line);
    REQUIRE(scan.count == 1);
    CHECK(scan.headers[0].host == host);
    CHECK(scan.headers[0].host_form == HostForm::Named);
  }
}

TEST_CASE("a clock time is no host:pid:tid; the line is one that lost its header") {
  auto scan = scan_nccl_headers("12:34:56 [0] NCCL INFO Using network IB");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host_form == HostForm::Absent);
  CHECK(scan.headers[0].host.empty());
  CHECK(scan.headers[0].dev == 0);
  CHECK(scan.headers[0].payload == "Using network IB");
  scan = scan_nccl_headers("2024-05-01 23:59:60,789 [3] NCCL INFO Using network IB");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host_form == HostForm::Absent);
  CHECK(scan.headers[0].dev == 3);
}

TEST_CASE("NCCL 2.19.3 lines without host:pid:tid, as notebooks and quotes show them") {
  auto scan = scan_nccl_headers("[0] NCCL INFO Bootstrap : Using eth0:10.1.0.10<0>");
  REQUIRE(scan.count == 1);
  const auto& h = scan.headers[0];
  CHECK(h.host_form == HostForm::Absent);
  CHECK(h.pid == 0);
  CHECK(h.dev == 0);
  CHECK(h.level == Level::Info);
  CHECK(h.payload == "Bootstrap : Using eth0:10.1.0.10<0>");
  CHECK(h.column == 0);
  scan = scan_nccl_headers("NCCL INFO Using network Socket");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].dev == -1);
  CHECK(scan.headers[0].payload == "Using network Socket");
  scan = scan_nccl_headers("[3] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.0.11<36945> failed : Software caused connection abort");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].level == Level::Warn);
  CHECK(scan.headers[0].dev == 3);
  CHECK(scan.headers[0].location == "misc/socket.cc:484");
  CHECK(scan.headers[0].payload == "socketStartConnect: Connect to 10.1.0.11<36945> failed : Software caused connection abort");
}

TEST_CASE("a host kept without its pid and tid, or with stand-ins for them, before the device") {
  auto scan = scan_nccl_headers("node-a [5] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.0.0.2<52905> failed : Connection reset by peer");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "node-a");
  CHECK(scan.headers[0].host_form == HostForm::Named);
  CHECK(scan.headers[0].pid == 0);
  CHECK(scan.headers[0].dev == 5);
  CHECK(scan.headers[0].location == "misc/socket.cc:46");
  scan = scan_nccl_headers("[Node-A]:[PID]:[Thread] [0] NCCL INFO transport/net.cc:1302 -> 6");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "[Node-A]");
  CHECK(scan.headers[0].host_form == HostForm::Placeholder);
  CHECK(scan.headers[0].payload == "transport/net.cc:1302 -> 6");
  // The device bracket is what vouches for the host word.
  CHECK(scan_nccl_headers("node-a NCCL INFO x").count == 0);
  CHECK(scan_nccl_headers("rank: [0] NCCL INFO x").count == 0);
  CHECK(scan_nccl_headers("a:b:c [0] NCCL INFO x").count == 0);
  CHECK(scan_nccl_headers("123 [0] NCCL INFO x").headers[0].host_form == HostForm::Absent);
}

TEST_CASE("NCCL 2.26+ WARN time stamps, before the host or before a lost one") {
  auto scan = scan_nccl_headers(
      "[2025-03-04 12:00:01] gpu01:2771:2801 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.0.11<44021> with status=12");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu01");
  CHECK(scan.headers[0].host_form == HostForm::Named);
  CHECK(scan.headers[0].location == "transport/net_ib.cc:1696");
  scan = scan_nccl_headers(
      "[2025-03-04 12:00:01] [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.0.11<44021> with status=12");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host_form == HostForm::Absent);
  CHECK(scan.headers[0].location == "transport/net_ib.cc:1696");
  // Without its device a lost header needs its source location.
  scan = scan_nccl_headers("transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.0.11<44021>");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].dev == -1);
}

TEST_CASE("ordinary text that mentions NCCL INFO or WARN invents no header") {
  CHECK(scan_nccl_headers("NCCL WARN lines appear when the job fails").count == 0);
  CHECK(scan_nccl_headers("Error at 12:34 NCCL WARN watchdog").count == 0);
  CHECK(scan_nccl_headers("RuntimeError: NCCL WARN seen").count == 0);
  CHECK(scan_nccl_headers("[0] some text NCCL INFO x").count == 0);
  CHECK(scan_nccl_headers("[0] NCCL version 2.19.3+cuda12.3").count == 0);
  CHECK(scan_nccl_headers("12:34:56 NCCL INFORMATION").count == 0);
  CHECK(scan_nccl_headers("[redacted]:1:2 [0] NCCL INFO x").count == 1);
  CHECK(scan_nccl_headers("[12:34:56]:1:2 [0] NCCL INFO x").count == 0);
}

TEST_CASE("which host names stand in for others") {
  CHECK(is_placeholder_host("<cluster_name>"));
  CHECK(is_placeholder_host("xxx.xxx.xxx.xxx"));
  CHECK(is_placeholder_host("***"));
  CHECK(is_placeholder_host("Redacted"));
  CHECK_FALSE(is_placeholder_host("<node1>"));
  CHECK_FALSE(is_placeholder_host("gpu-x1"));
  CHECK_FALSE(is_placeholder_host("localhost"));
  CHECK_FALSE(is_placeholder_host("ubuntu"));
  CHECK_FALSE(is_placeholder_host("box"));
}

TEST_CASE("a line that starts with its header is read forward") {
  NcclHeader h;
  std::string line = "node0751:225067:225068 [3] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read";
  REQUIRE(leading_nccl_header(line, line.find(" NCCL "), h));
  CHECK(h.host == "node0751");
  CHECK(h.host_form == HostForm::Named);
  CHECK(h.pid == 225067);
  CHECK(h.tid == 225068);
  CHECK(h.dev == 3);
  CHECK(h.level == Level::Info);
  CHECK(h.payload == "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read");
  CHECK(h.column == 0);
  CHECK(forward_header_agrees(line));
  line = "hostname:1:2 [0] NCCL WARN Call to ibv_open_device failed";
  REQUIRE(leading_nccl_header(line, line.find(" NCCL "), h));
  CHECK(h.host_form == HostForm::Placeholder);
  CHECK(h.level == Level::Warn);
  CHECK(forward_header_agrees(line));
  line = "gpu-a_1:7:7 NCCL CALL ncclCommInitRank(comm, 8, 0x1, 0)";
  REQUIRE(leading_nccl_header(line, line.find(" NCCL "), h));
  CHECK(h.dev == -1);
  CHECK(forward_header_agrees(line));
  // Shapes it leaves to the full path: prefixes, a location, a host with a
  // dot or a leading digit (a clock time), missing ids.
  for (std::string other : {"[1,0]<stdout>:node1:7:7 [0] NCCL INFO x", "node1: node1:7:7 [0] NCCL INFO x",
                            "2024-05-01 10:00:00 node1:7:7 [0] NCCL INFO x", "  node1:7:7 [0] NCCL INFO x",
                            "node1:7:7 [0] misc/socket.cc:50 NCCL WARN x", "node1.cluster:7:7 [0] NCCL INFO x",
                            "12:34:56 [0] NCCL INFO x", "node1:7 [0] NCCL INFO x", "node1:7:7 NCCL INFO x",
                            "node1:7:7 [0] NCCL DEBUG x", "<node1>:7:7 [0] NCCL INFO x"}) {
    CAPTURE(other);
    size_t marker = other.find(" NCCL ");
    CHECK_FALSE(leading_nccl_header(other, marker, h));
  }
}

TEST_CASE("the forward header reader agrees with the full path on every bundled line and its mutations") {
  std::vector<std::string> lines = nd::test::bundled_lines();
  REQUIRE(lines.size() > 1000);
  size_t answered = 0;
  std::vector<std::string> seeds;
  for (const auto& line : lines) {
    if (forward_header_agrees(line)) {
      ++answered;
    } else if (line.find(" NCCL ") != std::string::npos) {
      seeds.push_back(line);  // the shapes it refuses, to mutate towards the ones it takes
    }
  }
  CHECK(answered > 1000);
  std::mt19937 rng(23);
  const std::string alphabet = "0123456789:[]<> N-._aZ|\t";
  size_t mutants_answered = 0;
  for (int i = 0; i < 60000; ++i) {
    const std::string& seed = i % 2 ? seeds[rng() % seeds.size()] : lines[rng() % lines.size()];
    mutants_answered += forward_header_agrees(nd::test::mutated(seed, alphabet, rng));
  }
  CHECK(mutants_answered > 1000);
}

TEST_CASE("behind mpirun's usual tag the forward reader gives the envelope and header of the full path") {
  NcclHeader h;
  Envelope env;
  std::string line = "[1,4095]<stdout>:node0751:225067:225067 [3] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";
  REQUIRE(tagged_leading_nccl_header(line, line.find(" NCCL "), env, h));
  CHECK(h.host == "node0751");
  CHECK(h.dev == 3);
  CHECK(env.launcher_rank == 4095u);
  CHECK(env.prefix_length == 17);
  CHECK(forward_header_agrees(line));
  line = "[1,7]<stderr>: hostname:1:2 [0] NCCL WARN Call to ibv_open_device failed";
  REQUIRE(tagged_leading_nccl_header(line, line.find(" NCCL "), env, h));
  CHECK(h.host_form == HostForm::Placeholder);  // then the tag's rank tells the process
  CHECK(env.launcher_rank == 7u);
  CHECK(forward_header_agrees(line));
  // Left to the full path: other tag forms, another prefix after the tag, a
  // host that does not start lower-case, no tag.
  for (std::string other : {"[1,0][node1:7]<stdout>:node1:7:7 [0] NCCL INFO x", "[1,0]<stdout>:node1: node1:7:7 [0] NCCL INFO x",
                            "[1,0]<stdout>:Node1:7:7 [0] NCCL INFO x", "[1,0]<stdout>:[1,0]<stdout>:node1:7:7 [0] NCCL INFO x",
                            "[1,0]<stdout>: 2024-05-01 10:00:00 node1:7:7 [0] NCCL INFO x", "node1:7:7 [0] NCCL INFO x",
                            "[1,0]<stdout>:node1:7:7 [0] misc/socket.cc:50 NCCL WARN x", "[1,1234567890]<stdout>:node1:7:7 [0] NCCL INFO x"}) {
    CAPTURE(other);
    CHECK_FALSE(tagged_leading_nccl_header(other, other.find(" NCCL "), env, h));
  }
}

TEST_CASE("the tagged forward reader agrees with the full path on tagged bundled lines and their mutations") {
  std::vector<std::string> lines;
  const std::string tags[] = {"[1,0]<stdout>:", "[1,5]<stderr>: ", "[12,8191]<stdout>:", "[1,123456789]<stdout>:"};
  size_t k = 0;
  for (const auto& line : nd::test::bundled_lines()) {
    if (line.find(" NCCL ") != std::string::npos) lines.push_back(tags[k++ % std::size(tags)] + line);
  }
  REQUIRE(lines.size() > 1000);
  size_t answered = 0;
  for (const auto& line : lines) answered += forward_header_agrees(line);
  CHECK(answered > 1000);
  std::mt19937 rng(29);
  const std::string alphabet = "0123456789:[]<>,sx N-._aZ|\t";
  size_t mutants_answered = 0;
  for (int i = 0; i < 60000; ++i) {
    mutants_answered += forward_header_agrees(nd::test::mutated(lines[rng() % lines.size()], alphabet, rng));
  }
  CHECK(mutants_answered > 1000);
}
