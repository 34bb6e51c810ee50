#include "parsers/line_parser.h"

#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "parsers/envelope.h"
#include "parsers/fast_shapes.h"

using namespace nd;

namespace {

// Parses the lines as one batch, one literal per line.
ParsedLines parse(std::initializer_list<std::string_view> lines, std::shared_ptr<const NameSet> known = nullptr) {
  ParsedLines out;
  out.known_hosts = std::move(known);
  uint64_t n = 0;
  for (std::string_view text : lines) parse_line(Line{text, ++n, false}, out);
  return out;
}

// The event of a line that must be one message; a copy, as its batch goes.
template <typename T>
T only_event(const ParsedLines& p) {
  REQUIRE(p.items.size() == 1);
  CHECK(p.items[0].kind == ParsedLines::Kind::Message);
  REQUIRE(std::holds_alternative<T>(p.items[0].event));
  return std::get<T>(p.items[0].event);
}

}  // namespace

TEST_CASE("an INFO line becomes one message with its header, event and text") {
  ParsedLines p = parse({"gpu01:2771:2771 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read"});
  const auto& c = only_event<ConnectionEvent>(p);
  CHECK(c.transport == "P2P/IPC/read");
  CHECK(p.items[0].header.host == "gpu01");
  CHECK(p.items[0].raw == "gpu01:2771:2771 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read");
  CHECK(p.items[0].line == 1);
  CHECK(p.counts.lines == 1);
  CHECK(p.counts.nccl_lines == 1);
  CHECK(p.counts.info_lines == 1);
  CHECK(p.hosts.contains("gpu01"));
}

TEST_CASE("bootstrap lines name the host's address, 2.4-2.23 and 2.24+") {
  for (std::string_view line : {"a100-05:4100:4100 [0] NCCL INFO Bootstrap : Using bond0:10.5.1.5<0>",
                                "h200-a01:7001:7001 [0] NCCL INFO Bootstrap: Using ib0:10.9.0.1<0>"}) {
    INFO(line);
    ParsedLines p = parse({line});
    auto b = only_event<BootstrapEvent>(p);
    REQUIRE(b.addresses.size() == 1);
    CHECK((b.addresses[0] == "10.5.1.5" || b.addresses[0] == "10.9.0.1"));
    CHECK((b.interface == "bond0" || b.interface == "ib0"));
    CHECK(b.address == b.addresses[0]);
  }
  // IPv6, and 2.5's list of several: NCCL bootstraps on the first.
  auto v6 = only_event<BootstrapEvent>(
      parse({"gh1:180172:180172 [0] NCCL INFO Bootstrap : Using ib0:fe80::a288:c203:d2:aaf2%ib0<0>"}));
  CHECK(v6.addresses.empty());
  CHECK(v6.interface == "ib0");
  CHECK(v6.address == "fe80::a288:c203:d2:aaf2%ib0");
  auto listed = only_event<BootstrapEvent>(parse(
      {"node-a:97:221 [0] NCCL INFO Bootstrap : Using [0]ip6tnl0:fe80::e866:19ff:fe1e:a688%ip6tnl0<0> "
       "[1]eth0:10.0.0.3<0>"}));
  CHECK(listed.interface == "ip6tnl0");
  CHECK(listed.address == "fe80::e866:19ff:fe1e:a688%ip6tnl0");
  CHECK(listed.first_interface == "eth0");
  // 2.23+ timings: a bootstrap line without an address.
  CHECK(only_event<BootstrapEvent>(parse({"gpu01:2771:2771 [0] NCCL INFO Bootstrap timings total 0.002 (create 0.000, "
                                          "send 0.000, recv 0.001, ring 0.000, delay 0.000)"}))
            .address.empty());
}

TEST_CASE("NVLS: the channel count of 2.17 and 2.20+, and the connected tree") {
  CHECK(only_event<NvlsChannelsEvent>(parse({"gpu01:100:100 [0] NCCL INFO 16 coll channels, 16 nvls channels, 32 p2p "
                                             "channels, 32 p2p channels per peer"}))
            .channels == 16);
  CHECK(only_event<NvlsChannelsEvent>(parse({"ip-172-31-3-153:35113:35467 [0] NCCL INFO 24 coll channels, 24 collnet "
                                             "channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer"}))
            .channels == 0);
  only_event<NvlsConnectedEvent>(parse({"gpu01:2771:2771 [0] NCCL INFO Connected NVLS tree"}));
  // A TRACE line is read for the same facts.
  CHECK(only_event<NvlsChannelsEvent>(parse({"gpu01:100:100 [0] 12.345 init.cc:1100 NCCL TRACE 8 coll channels, 8 nvls "
                                             "channels, 8 p2p channels, 2 p2p channels per peer"}))
            .channels == 8);
}

TEST_CASE("NET/IB : Using counts the devices and names the OOB address") {
  ParsedLines p = parse(
      {"gpu01:2771:2771 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; "
       "OOB ib0:10.1.0.10<0>"});
  auto e = only_event<NetUsingEvent>(p);
  CHECK(e.net == "IB");
  CHECK(e.device_count == 4);
  CHECK(e.devices.size() == 4);
  CHECK(e.addresses == std::vector<std::string_view>{"10.1.0.10"});
}

TEST_CASE("a WARN carries what it says about the networks") {
  ParsedLines p = parse(
      {"gpu07:51234:51290 [3] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.0.8<49513> "
       "with error 12, opcode 0, len 0, vendor err 129"});
  auto w = only_event<WarnEvent>(p);
  CHECK(w.location == "transport/net_ib.cc:1696");
  REQUIRE(w.note);
  CHECK(w.note->note == NetNote::IbTraffic);
  CHECK(w.note->status == 12);
  CHECK_FALSE(only_event<WarnEvent>(parse({"gpu01:1:1 [0] init.cc:100 NCCL WARN Duplicate GPU detected : rank 1 and "
                                           "rank 0 both on CUDA device 1000"}))
                  .note);
}

TEST_CASE("per-operation lines: counted for a known host, a sighting for a new one") {
  std::string_view op = "gpu01:2771:2771 [0] NCCL INFO AllReduce: opCount 1f sendbuff 0x7f2f3a000000 recvbuff "
                        "0x7f2f3a000000 count 262144 datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=16] stream 0x1";
  ParsedLines fresh = parse({op});
  REQUIRE(fresh.items.size() == 1);
  CHECK(fresh.items[0].kind == ParsedLines::Kind::HostSighting);
  auto known = std::make_shared<NameSet>();
  known->insert("gpu01");
  known->own();
  ParsedLines counted = parse({op, op}, known);
  CHECK(counted.items.empty());
  CHECK(counted.counts.lines == 2);
  CHECK(counted.counts.nccl_lines == 2);
  CHECK(counted.counts.info_lines == 2);
  // The chunked reader's path: the marker found, only counted.
  ParsedLines marked = parse({""}, known);
  parse_marked_line(Line{op, 2, false}, op.find(" NCCL "), marked);
  CHECK(marked.items.empty());
  CHECK(marked.counts.nccl_lines == 1);
}

TEST_CASE("per-operation lines behind mpirun --tag-output: the fast path decides as the full one") {
  std::string_view body = "gpu01:2771:2771 [0] NCCL INFO AllReduce: opCount 1f sendbuff 0x7f2f3a000000 recvbuff "
                          "0x7f2f3a000000 count 262144 datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=16] stream 0x1";
  auto known = std::make_shared<NameSet>();
  known->insert("gpu01");
  known->insert("Gpu01");
  known->own();
  for (std::string prefix : {"[1,5]<stdout>:", "[1,5]<stderr>: ", "[12,4095]<stddiag>:", "[1,5]<stdout>:[1,5]<stdout>:",
                             "[1,99999999999]<stdout>:", "[1,5][gpu01:2771]<stdout>:", "[1,5]<stdout>:  ", "[x,5]<stdout>:"}) {
    for (std::string name : {"gpu01", "Gpu01", "gpu02"}) {
      std::string line = prefix + name + std::string(body.substr(5));
      INFO(line);
      // What the stripper and the backward reader decide, which the fast
      // path must match: only counted when the stripper leaves the header
      // at the start and its host is known.
      size_t marker = line.find(" NCCL ");
      auto host = per_operation_host(line, marker);
      bool only_counted = host && known->contains(*host) && strip_envelope(line).payload.data() == host->data();
      ParsedLines marked = parse({""}, known);
      parse_marked_line(Line{line, 2, false}, marker, marked);
      CHECK(marked.counts.nccl_lines == 1);
      CHECK(marked.items.empty() == only_counted);
    }
  }
}

TEST_CASE("a launcher's binding report keeps the host as NCCL prints it") {
  ParsedLines p = parse({"[a03.alembert:25635] MCW rank 2 bound to socket 0[core 0[hwt 0-1]]: "
                         "[BB/../../../../../../../../..][../../../../../../../../../..]"});
  REQUIRE(p.items.size() == 1);
  CHECK(p.items[0].kind == ParsedLines::Kind::Binding);
  REQUIRE(p.bindings.size() == 1);
  CHECK(p.bindings[0].host == "a03");
  CHECK(p.bindings[0].task == 2);
}

TEST_CASE("a command line with --bind-to is no binding report: it stays for the other readers") {
  ParsedLines p = parse({"$ mpirun -np 16 --bind-to none -x NCCL_DEBUG=INFO ./build/broadcast_perf -b 8 -e 128M"});
  REQUIRE(p.items.size() == 1);
  CHECK(p.items[0].kind == ParsedLines::Kind::Other);
  CHECK(p.bindings.empty());
  REQUIRE(p.others.size() == 1);
  CHECK(p.others[0].payload.find("broadcast_perf") != std::string_view::npos);
}

TEST_CASE("a crash report is a framework line; a line that only mentions a signal stays for the other readers") {
  ParsedLines p = parse({"[gpu01:4682 :0:4682] Caught signal 11 (Segmentation fault: address not mapped)",
                         "# gpu   pwr signal  sm   mem",
                         " 1 0x0000000000050dc2 pncclRedOpDestroy()  ???:0"});
  REQUIRE(p.frameworks.size() == 2);
  CHECK(p.frameworks[0].kind == FrameworkKind::Crash);
  REQUIRE(p.frameworks[0].crash);
  CHECK(p.frameworks[0].crash->name == "SIGSEGV");
  CHECK(p.frameworks[1].kind == FrameworkKind::CrashFrame);
  REQUIRE(p.others.size() == 1);
  CHECK(p.others[0].payload.find("pwr signal") != std::string_view::npos);
}

TEST_CASE("PyTorch's lines: watchdog, NCCL error, and Last error with its message on the next line") {
  ParsedLines p = parse({
      "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.",
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, "
      "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6",
      "Last error:",
      "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host",
  });
  REQUIRE(p.items.size() == 4);
  REQUIRE(p.frameworks.size() == 4);
  CHECK(p.items[0].kind == ParsedLines::Kind::Framework);
  CHECK(p.frameworks[0].kind == FrameworkKind::WatchdogTimeout);
  CHECK(p.frameworks[0].watchdog->seq == 808);
  CHECK(p.frameworks[1].kind == FrameworkKind::NcclError);
  CHECK(p.frameworks[1].nccl_error->version == "2.18.6");
  CHECK(p.frameworks[2].opens_last_error);
  CHECK(p.items[3].kind == ParsedLines::Kind::LastErrorText);
  CHECK(p.items[3].index == 3);
  CHECK(p.frameworks[3].text == "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
  CHECK_FALSE(p.expect_last_error);
  // A batch that ends on `Last error:` leaves the next batch its message.
  CHECK(parse({"[rank7]: Last error:"}).expect_last_error);
}

TEST_CASE("the raw version banner in a log viewer's table row") {
  for (const char* line : {"  | 2025-05-16T16:39:51.208-07:00 | NCCL version 2.21.5+cuda12.8",
                           "| NCCL version 2.21.5+cuda12.8"}) {
    ParsedLines p = parse({line});
    REQUIRE(p.items.size() == 1);
    CHECK(p.items[0].kind == ParsedLines::Kind::Banner);
    CHECK(std::get<VersionEvent>(p.items[0].event).version == "2.21.5");
  }
}

TEST_CASE("a line without its own host: the launcher's, as NCCL would print it") {
  ParsedLines p = parse({"node0000: NCCL version 2.18.3+cuda12.2",
                         "gpu07.cluster.local: xxx:919:1150 [0] NCCL INFO Using network IB",
                         " 3: [0] NCCL INFO Using network IB"});
  REQUIRE(p.items.size() == 3);
  CHECK(p.items[0].kind == ParsedLines::Kind::Banner);
  CHECK(p.items[0].launcher_host == "node0000");
  CHECK(std::get<VersionEvent>(p.items[0].event).version == "2.18.3");
  CHECK(p.items[1].header.host_form == HostForm::Placeholder);
  CHECK(p.items[1].launcher_host == "gpu07");
  CHECK(p.items[2].header.host_form == HostForm::Absent);
  CHECK(p.items[2].launcher_rank == 3u);
  CHECK(p.items[2].rank_from == Launcher::Slurm);
  CHECK(launcher_host_name("10.1.0.10") == "10.1.0.10");
  CHECK(launcher_host_name("gpu07.cluster") == "gpu07");
  CHECK(launcher_host_name("xxx").empty());
}

TEST_CASE("carriage returns and lost newlines: every screen line and header counts") {
  ParsedLines p = parse({"gpu01:2771:2771 [0] NCCL INFO Using network IB\rgpu01:2771:2771 [0] NCCL INFO cudaDriverVersion "
                         "12040\r"});
  REQUIRE(p.items.size() == 2);
  CHECK(std::holds_alternative<UsingNetworkEvent>(p.items[0].event));
  CHECK(std::holds_alternative<CudaDriverEvent>(p.items[1].event));
  CHECK(p.counts.nccl_lines == 2);
  std::string flat;
  for (int i = 0; i < 6; ++i) flat += "gpu0" + std::to_string(i) + ":1:1 [0] NCCL INFO Using network IB ";
  ParsedLines f = parse({flat});
  REQUIRE(f.items.size() == 6);
  CHECK(f.items[5].raw == "gpu05:1:1 [0] NCCL INFO Using network IB ");
  CHECK(f.counts.spliced_lines == 1);
}

TEST_CASE("a batch remembers its first line's share; a line holding Last error: waits for the batch before") {
  ParsedLines p = parse({"gpu01:2771:2771 [0] NCCL INFO Using network IB", "gpu01:2771:2771 [0] NCCL WARN x"});
  CHECK(p.first_text == "gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(p.first_items == 1);
  CHECK(p.first_share.nccl_lines == 1);
  CHECK(p.first_share.info_lines == 1);
  CHECK(p.first_share.warn_lines == 0);
  CHECK(p.first_share.lines == 0);  // taken back, it stays a line
  CHECK(p.counts.lines == 2);
  CHECK(p.counts.warn_lines == 1);
  CHECK(needs_line_by_line("[rank0]: Last error:"));
  CHECK_FALSE(needs_line_by_line("gpu01:2771:2771 [0] NCCL INFO Using network IB"));
  CHECK(holds_nccl_marker("x NCCL y"));
  CHECK_FALSE(holds_nccl_marker("NCCL error"));
}
