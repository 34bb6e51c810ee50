#include "src/model/model_builder.h"

#include <doctest/doctest.h>

#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("2.4: lines before Init COMPLETE belong to that communicator; send and receive merge") {
  auto m = model_from({
      "NCCL version 2.4.8+cuda10.0",
      "node01:100:100 [0] NCCL INFO Ring 00 : 1 -> 0 [receive] via NET/Socket/0",
      "node01:100:100 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node02:200:200 [0] NCCL INFO Ring 00 : 0 -> 1 [receive] via NET/Socket/0",
      "node02:200:200 [0] NCCL INFO Ring 00 : 1 -> 0 [send] via NET/Socket/0",
      "node01:100:100 [0] NCCL INFO comm 0x7f01 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:200:200 [0] NCCL INFO comm 0x7f02 rank 1 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  const auto& c = m.comms[0];
  CHECK(c.key == "#0/2");
  CHECK(c.nranks == 2);
  REQUIRE(c.edges.size() == 2);
  CHECK(c.edges[0].sender == 0);
  CHECK(c.edges[0].send_transport != kNoTransport);
  CHECK(c.edges[0].recv_transport != kNoTransport);
  CHECK(m.host_name(c.host_of(0)) == "node01");
  CHECK(m.host_name(c.host_of(1)) == "node02");
  CHECK(m.versions.count("2.4.8") == 1);
}

TEST_CASE("2.18.3+: lines between Init START and COMPLETE go to the open communicator") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1111 - Init START",
      "gpu01:100:100 [0] NCCL INFO comm 0xb rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2222 - Init START",
      "gpu01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 3[0] [send] via NET/IB/0/GDRDMA",
      "gpu01:100:100 [0] NCCL INFO comm 0xb rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2222 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 2);
  // The 4-rank communicator is the only open one where rank 3 exists.
  CHECK(m.comms[0].edges.empty());
  REQUIRE(m.comms[1].edges.size() == 1);
  CHECK(m.comms[1].key == "0x2222");
}

TEST_CASE("2.22+: runtime connections after COMPLETE match the process's own rank") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO ncclCommInitRank comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1111 - Init START",
      "gpu01:100:100 [0] NCCL INFO ncclCommInitRank comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1111 - Init COMPLETE",
      "gpu01:100:100 [0] NCCL INFO ncclCommSplit comm 0xb rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 parent 0xa splitCount 1 color 0 key 1 commId 0x2222 - Init START",
      "gpu01:100:100 [0] NCCL INFO ncclCommSplit comm 0xb rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 parent 0xa splitCount 1 color 0 key 1 commId 0x2222 - Init COMPLETE",
      "gpu01:100:140 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
      "gpu01:100:140 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[1] via P2P/CUMEM/read",
  });
  REQUIRE(m.comms.size() == 2);
  CHECK(m.comms[0].edges.size() == 1);
  CHECK(m.comms[0].edges[0].sender == 0);
  CHECK(m.comms[1].edges.size() == 1);
  CHECK(m.comms[1].edges[0].sender == 1);
  CHECK(m.counters.ambiguous_assignments == 0);
}

TEST_CASE("P2P and SHM peers share a host even when the peer's lines are missing") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO Channel 00 : 0[18000] -> 1[2a000] via SHM/direct/direct",
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  CHECK(m.host_name(m.comms[0].host_of(1)) == "gpu01");
}

TEST_CASE("lines no Init line claims land in an unclaimed communicator") {
  auto m = model_from({"gpu01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 5[0] [send] via NET/IB/0"});
  REQUIRE(m.comms.size() == 1);
  CHECK(m.comms[0].key == "unclaimed");
  CHECK(m.comms[0].synthetic);
  CHECK(m.comms[0].size() == 6);
}

TEST_CASE("a host glued to spliced text is matched to a known host") {
  auto m = model_from({
      "gpu11:100:100 [0] NCCL INFO Using network IB",
      "gpu11:100:100 [0] NCCL INFO Connected allgpu11:101:101 [1] NCCL INFO Using network IB",
  });
  CHECK(m.hosts.size() == 1);
  CHECK(m.counters.spliced_lines == 1);
  CHECK(m.using_network.at("IB").size() == 2);
}

TEST_CASE("counters: unknown, malformed, WARN and text of cited lines") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO Frobnicating the widget",
      "gpu01:100:100 [0] NCCL INFO Channel 00 : 99999999999 -> 1[1] via P2P/IPC",
      "",
      "gpu01:100:100 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
      "not an nccl line",
  });
  CHECK(m.counters.lines == 5);
  CHECK(m.counters.nccl_lines == 3);
  CHECK(m.counters.unknown_lines == 1);
  CHECK(m.counters.malformed_lines == 1);
  REQUIRE(m.warnings.size() == 1);
  CHECK(m.warnings[0].location == "misc/ibvwrap.cc:63");
  CHECK(m.warnings[0].message == "Failed to open libibverbs.so[.1]");
  REQUIRE(m.text_of(LineRef{0, 1}));
  CHECK(*m.text_of(LineRef{0, 1}) == "gpu01:100:100 [0] NCCL INFO Frobnicating the widget");
  CHECK(m.where(LineRef{0, 4}) == "job.log:4");
}

TEST_CASE("nNodes and NVLS channel counts are recorded") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init START",
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
      "gpu01:100:100 [0] NCCL INFO 16 coll channels, 0 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer",
  });
  REQUIRE(m.comms.size() == 1);
  CHECK(m.comms[0].nnodes == 2);
  CHECK(m.max_nvls_channels == 16);
}

TEST_CASE("PyTorch watchdog, NCCL error and Last error lines are kept though they are not NCCL lines") {
  auto m = model_from({
      "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.",
      "[rank1]: torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6",
      "[rank1]: Last error:",
      "[rank1]: socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host",
      "an ordinary line",
  });
  REQUIRE(m.framework_errors.size() == 3);
  CHECK(m.framework_errors[0].kind == FrameworkKind::WatchdogTimeout);
  CHECK(m.framework_errors[0].launcher_rank == 1u);
  CHECK(m.framework_errors[0].text.starts_with("[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog"));
  CHECK(m.framework_errors[1].kind == FrameworkKind::NcclError);
  CHECK(m.framework_errors[2].kind == FrameworkKind::LastError);
  CHECK(m.framework_errors[2].text == "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
  CHECK(m.framework_errors[2].line.line == 4);
}

TEST_CASE("OOB and bootstrap addresses map IPs to hosts; processes record their init progress") {
  auto m = model_from({
      "gpu07:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_3:1/IB [RO]; OOB ib0:10.1.0.7<0>",
      "gpu08:2:2 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.8<0>",
      "gpu08:2:2 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0",
      "gpu07:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
  });
  CHECK(m.ip_hosts.at("10.1.0.7") == *m.hosts.find("gpu07"));
  CHECK(m.ip_hosts.at("10.1.0.8") == *m.hosts.find("gpu08"));
  REQUIRE(m.processes.size() == 2);
  const auto& p8 = m.processes[0].host == *m.hosts.find("gpu08") ? m.processes[0] : m.processes[1];
  CHECK(p8.own_rank == 1);
  CHECK(p8.init_phase);
  CHECK(p8.init_completes == 0);
  CHECK(p8.init_phase_line.line == 3);
}

TEST_CASE("2.30 echoes NCCL_NET as a comm config line") {
  auto m = model_from({"gpu07:1:1 [0] NCCL INFO Comm config netName reset to NCCL_NET=Socket"});
  REQUIRE(m.env.size() == 1);
  CHECK(m.env[0].name == "NCCL_NET");
  CHECK(m.env[0].value == "Socket");
}
