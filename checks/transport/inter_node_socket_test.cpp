#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("inter-node-socket names the host pair, ranks, channels and evidence") {
  auto m = model_from({
      "gpu009:100:100 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/3",
      "gpu028:200:200 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [receive] via NET/Socket/0",
      "gpu028:207:207 [7] NCCL INFO Channel 01/0 : 15[7] -> 0[0] [send] via NET/Socket/3",
      "gpu009:93:93 [0] NCCL INFO Channel 01/0 : 15[7] -> 0[0] [receive] via NET/Socket/0",
      "gpu009:93:93 [0] NCCL INFO comm 0x1 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "gpu009:100:100 [7] NCCL INFO comm 0x2 rank 7 nranks 16 cudaDev 7 nvmlDev 7 busId db000 commId 0xabc - Init COMPLETE",
      "gpu028:200:200 [0] NCCL INFO comm 0x3 rank 8 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "gpu028:207:207 [7] NCCL INFO comm 0x4 rank 15 nranks 16 cudaDev 7 nvmlDev 7 busId db000 commId 0xabc - Init COMPLETE",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "ND3001");
  CHECK(f[0].slug == "inter-node-socket");
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message ==
        "ranks 0,7 on gpu009 <-> ranks 8,15 on gpu028, channels 00-01, via NET/Socket (2 connections)");
  CHECK(f[0].hosts == std::vector<std::string>{"gpu009", "gpu028"});
  CHECK(f[0].ranks == std::vector<uint32_t>{0, 7, 8, 15});
  CHECK(f[0].channels == std::vector<uint32_t>{0, 1});
  REQUIRE(f[0].evidence.size() == 3);
  CHECK(f[0].evidence[0].line == 1);
  CHECK(f[0].evidence[0].text == "gpu009:100:100 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/3");
}

TEST_CASE("the NET/Socket bootstrap line alone is not a socket data path") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NET/Socket : Using [0]ib0:10.1.0.10<0>",
      "gpuB:200:200 [0] NCCL INFO NET/Socket : Using [0]ib0:10.1.0.11<0>",
      "gpuA:100:100 [0] NCCL INFO Using network IB",
  });
  CHECK(run_rule("inter-node-socket", m).empty());
}

TEST_CASE("without connection lines, 'Using network Socket' on several hosts is the evidence") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Using network Socket",
      "gpuB:200:200 [0] NCCL INFO Using network Socket",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "NCCL chose network Socket on 2 hosts of a 2-host job ('Using network Socket'); the log has no inter-node "
        "connection lines to show which links use it");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("many socket host pairs collapse into one finding") {
  // A 10-host ring where every host pair link is on sockets.
  std::vector<std::string> lines;
  for (int r = 0; r < 10; ++r) {
    int next = (r + 1) % 10;
    lines.push_back("node" + std::to_string(r) + ":1:1 [0] NCCL INFO Channel 00/0 : " + std::to_string(r) + "[0] -> " +
                    std::to_string(next) + "[0] [send] via NET/Socket/0");
    lines.push_back("node" + std::to_string(r) + ":1:1 [0] NCCL INFO comm 0x1 rank " + std::to_string(r) +
                    " nranks 10 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE");
  }
  auto m = model_from_lines(lines);
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "10 host pairs across 10 hosts, ranks 0-9, channels 00, via NET/Socket (10 connections); e.g. node0 -> node1, "
        "node0 -> node9, node1 -> node2");
  CHECK(f[0].hosts.size() == 10);
}

TEST_CASE("a socket fallback cites its INFO-level cause: libibverbs missing (2.21.5)") {
  auto m = model_from({
      "node-17:4100:4100 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
      "node-17:4100:4100 [0] NCCL INFO Failed to open libibverbs.so[.1]",
      "node-17:4100:4100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.4.0.17<0>",
      "node-17:4100:4100 [0] NCCL INFO Using network Socket",
      "node-17:4100:4100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "node-18:4200:4200 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "node-17:4100:4154 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
      "node-17:4100:4154 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "rank 0 on node-17 <-> rank 1 on node-18, channel 00, via NET/Socket (2 connections); NCCL fell back to sockets "
        "because libibverbs could not be loaded on node-17 ('Failed to open libibverbs.so[.1]'): rdma-core is missing "
        "on the host or in the container, so NCCL's InfiniBand/RoCE transport cannot start");
  // The cause line comes first in the budget, then a link line; 'No plugin
  // found' is printed by every job on NCCL's own IB and explains nothing here.
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].text == "node-17:4100:4100 [0] NCCL INFO Failed to open libibverbs.so[.1]");
  CHECK(f[0].evidence[1].line == 7);
}

TEST_CASE("socket fallback causes: no IB device (INFO), 2.28's IB init failure folded in, old WARN form (2.4.8)") {
  auto no_device = model_from({
      "a100-05:4100:4100 [0] NCCL INFO NET/IB : No device found.",
      "a100-05:4100:4100 [0] NCCL INFO Failed to initialize NET plugin IB",
      "a100-05:4100:4100 [0] NCCL INFO Using network Socket",
      "a100-06:4200:4200 [0] NCCL INFO Using network Socket",
  });
  auto f = run_rule("inter-node-socket", no_device);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "NCCL chose network Socket on 2 hosts of a 2-host job ('Using network Socket'); the log has no inter-node "
        "connection lines to show which links use it; NCCL fell back to sockets because NCCL's IB transport found no "
        "usable RDMA device on a100-05 ('NET/IB : No device found.'): no HCA visible (in a container: "
        "/dev/infiniband not mounted), no port ACTIVE, or NCCL_IB_HCA matches none");
  CHECK(f[0].evidence.front().text == "a100-05:4100:4100 [0] NCCL INFO NET/IB : No device found.");
  auto old = model_from({
      "",
      "node01:2771:2771 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
      "node01:2771:2771 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node01:2771:2771 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 - Init COMPLETE",
      "node02:2800:2800 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 - Init COMPLETE",
  });
  f = run_rule("inter-node-socket", old);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("because libibverbs could not be loaded on node01") != std::string::npos);
  CHECK(f[0].evidence.front().line == 2);
}

TEST_CASE("before 2.28 a failed plugin says so only in its own WARN, which is then the cause (2.27.7, AWS)") {
  auto m = model_from({
      "ip-172-31-3-153:35113:35113 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)",
      "",
      "[2026-01-02 10:24:27] ip-172-31-3-153:35113:35467 [0] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208 "
      "NCCL WARN NET/OFI Failed to initialize sendrecv protocol",
      "ip-172-31-3-153:35113:35467 [0] NCCL INFO Using network Socket",
      "ip-172-31-9-20:41002:41002 [0] NCCL INFO Using network Socket",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.ends_with("; NCCL fell back to sockets because the network plugin failed on ip-172-31-3-153 "
                               "('NET/OFI Failed to initialize sendrecv protocol')"));
  CHECK(f[0].evidence.front().line == 3);
}

TEST_CASE("a socket link of ranks whose lines name no host says host unknown") {
  // NCCL 2.19.3 excerpt with stand-in hosts: ranks 2-3 printed lines, 0-1 did not.
  auto m = model_from({
      "<hostname>:919:1150 [0] NCCL INFO comm 0x1 rank 2 nranks 4 cudaDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "<hostname>:920:1151 [1] NCCL INFO comm 0x2 rank 3 nranks 4 cudaDev 1 busId 2a000 commId 0xabc - Init COMPLETE",
      "<hostname>:920:1151 [1] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/0",
      "<hostname>:919:1150 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/Socket/0",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "ranks 0-3 (host unknown), channel 00, via NET/Socket (2 connections)");
  CHECK(f[0].hosts.empty());
}

TEST_CASE("where the log shows NET/Socket inside a host, a link to an unplaced peer is not taken to cross hosts") {
  // Horovod on two 4-GPU hosts, NCCL 2.7: ranks 4 and 6 share a host and
  // talk over NET/Socket; rank 5's host is not in the excerpt. Ranks 2 and
  // 8 are on different hosts: that link does cross.
  auto m = model_from({
      "ip-a:1759:1759 [0] NCCL INFO comm 0x1 rank 4 nranks 12 cudaDev 0 busId 1b0 - Init COMPLETE",
      "ip-a:1761:1761 [2] NCCL INFO comm 0x2 rank 6 nranks 12 cudaDev 2 busId 1d0 - Init COMPLETE",
      "ip-b:2122:2122 [2] NCCL INFO comm 0x3 rank 2 nranks 12 cudaDev 2 busId 1d0 - Init COMPLETE",
      "ip-c:3122:3122 [0] NCCL INFO comm 0x4 rank 8 nranks 12 cudaDev 0 busId 1b0 - Init COMPLETE",
      "ip-a:1759:1773 [0] NCCL INFO Channel 00 : 4[1b0] -> 6[1d0] [send] via NET/Socket/0",
      "ip-a:1761:1772 [2] NCCL INFO Channel 01 : 5[1c0] -> 6[1d0] [receive] via NET/Socket/0",
      "ip-b:2122:2137 [2] NCCL INFO Channel 01 : 2[1d0] -> 8[1b0] [send] via NET/Socket/0",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("ip-b") != std::string::npos);
  CHECK(f[0].message.find("5") == std::string::npos);
}

TEST_CASE("with NET inside a host, 'Using network Socket' on several hosts is still the evidence") {
  auto m = model_from({
      "gpu01:1:1 [0] NCCL INFO Using network Socket",
      "gpu02:2:2 [0] NCCL INFO Using network Socket",
      "gpu01:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 16 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu01:3:3 [1] NCCL INFO comm 0x2 rank 1 nranks 16 cudaDev 1 busId 19000 - Init COMPLETE",
      "gpu01:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/Socket/0",
      "gpu01:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0",
  });
  auto f = run_rule("inter-node-socket", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.starts_with("NCCL chose network Socket on 2 hosts of a 2-host job"));
}
