#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/transport/transport_rules.h"
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
  auto f = run_rule<InterNodeSocket>(m);
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
  CHECK(run_rule<InterNodeSocket>(m).empty());
}

TEST_CASE("without connection lines, 'Using network Socket' on several hosts is the evidence") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Using network Socket",
      "gpuB:200:200 [0] NCCL INFO Using network Socket",
  });
  auto f = run_rule<InterNodeSocket>(m);
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
  auto f = run_rule<InterNodeSocket>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "10 host pairs across 10 hosts, ranks 0-9, channels 00, via NET/Socket (10 connections); e.g. node0 -> node1, "
        "node0 -> node9, node1 -> node2");
  CHECK(f[0].hosts.size() == 10);
}

TEST_CASE("a socket link of ranks whose lines name no host says host unknown") {
  // NCCL 2.19.3 excerpt with stand-in hosts: ranks 2-3 printed lines, 0-1 did not.
  auto m = model_from({
      "<hostname>:919:1150 [0] NCCL INFO comm 0x1 rank 2 nranks 4 cudaDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "<hostname>:920:1151 [1] NCCL INFO comm 0x2 rank 3 nranks 4 cudaDev 1 busId 2a000 commId 0xabc - Init COMPLETE",
      "<hostname>:920:1151 [1] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/0",
      "<hostname>:919:1150 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/Socket/0",
  });
  auto f = run_rule<InterNodeSocket>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "ranks 0-3 (host unknown), channel 00, via NET/Socket (2 connections)");
  CHECK(f[0].hosts.empty());
}
