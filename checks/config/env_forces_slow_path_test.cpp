#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("NCCL_IB_DISABLE=1 on a two-host job is named as the cause of the socket links") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "gpuB:200:200 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "gpuA:100:100 [0] NCCL INFO Using network Socket",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
  });
  auto f = run_rule("env-forces-slow-path", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "NCCL_IB_DISABLE=1 (echoed by gpuA, gpuB): it turns off NCCL's InfiniBand/RoCE transport, "
                        "which is why inter-node traffic goes over TCP sockets (inter-node-socket, ND3001)");
  CHECK(f[0].related == std::vector<std::string>{"ND3001"});
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].text == "gpuA:100:100 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.");
}

TEST_CASE("on one host the network settings do not matter") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "gpuA:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to lo",
  });
  CHECK(run_rule("env-forces-slow-path", m).empty());
}

TEST_CASE("2.30 echoes NCCL_NET; earlier versions are inferred from Using network Socket with IB present") {
  auto echoed = model_from({
      "gpuA:100:100 [0] NCCL INFO Comm config netName reset to NCCL_NET=Socket",
      "gpuB:200:200 [0] NCCL INFO Comm config netName reset to NCCL_NET=Socket",
  });
  auto f = run_rule("env-forces-slow-path", echoed);
  REQUIRE(f.size() == 1);
  // Its effect is not in the log: a note that says what was not checked.
  CHECK(f[0].message == "NCCL_NET=Socket (echoed by gpuA, gpuB): it selects the TCP socket network for inter-node "
                        "traffic; the log shows no inter-node connection line or network choice to tell whether it "
                        "costs anything here");
  CHECK(f[0].severity == Severity::Info);
  auto inferred = model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpuA:100:100 [0] NCCL INFO Using network Socket",
      "gpuB:200:200 [0] NCCL INFO Using network Socket",
  });
  f = run_rule("env-forces-slow-path", inferred);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.starts_with("NCCL chose network Socket although NET/IB : Using lists RDMA devices"));
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("P2P off explains SHM links; P2P and SHM off together explain NET links inside a host (2.18.3)") {
  auto shm = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1",
      "gpuA:100:100 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct",
  });
  auto f = run_rule("env-forces-slow-path", shm);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "NCCL_P2P_DISABLE=1 (echoed by gpuA): it turns off CUDA peer-to-peer (NVLink and PCIe P2P), "
                        "which is why GPUs of one host exchange data through host shared memory (intra-node-shm, ND3002)");
  auto net = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1",
      "gpuA:100:100 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init COMPLETE",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0",
      "gpuA:101:101 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [receive] via NET/IB/0",
  });
  f = run_rule("env-forces-slow-path", net);
  REQUIRE(f.size() == 2);
  CHECK(f[0].message == "NCCL_P2P_DISABLE=1 (echoed by gpuA): it turns off CUDA peer-to-peer (NVLink and PCIe P2P), "
                        "which is why GPUs of one host exchange data through the network (intra-node-net, ND3003)");
  CHECK(f[1].severity == Severity::Warning);
  CHECK(f[1].message == "NCCL_SHM_DISABLE=1 (echoed by gpuA): together with NCCL_P2P_DISABLE=1 it leaves GPUs of one "
                        "host only the network (NET) to talk through (intra-node-net, ND3003)");
}

TEST_CASE("P2P and SHM off with no intra-node link in the log are notes") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1",
      "gpuA:100:100 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.",
  });
  auto f = run_rule("env-forces-slow-path", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[1].severity == Severity::Info);
  CHECK(f[1].message == "NCCL_SHM_DISABLE=1 (echoed by gpuA): together with NCCL_P2P_DISABLE=1 it leaves GPUs of one "
                        "host only the network (NET) to talk through; the log shows no intra-node connection line to "
                        "tell whether it costs anything here");
}

TEST_CASE("NCCL_P2P_LEVEL=LOC turns P2P off like NCCL_P2P_DISABLE=1") {
  auto m = model_from({
      "h:1:11 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to LOC",
      "h:1:11 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.",
      "h:1:11 [0] NCCL INFO Channel 00 : 0[87000] -> 1[8d000] [send] via NET/IB/0/GDRDMA",
      "h:1:12 [1] NCCL INFO Channel 00 : 0[87000] -> 1[8d000] [receive] via NET/IB/0/GDRDMA",
  });
  CHECK(messages(run_rule("env-forces-slow-path", m)) ==
        std::vector<std::string>{
            "warning: NCCL_P2P_LEVEL=LOC (echoed by h): it turns off CUDA peer-to-peer (NVLink and PCIe P2P), which is "
            "why GPUs of one host exchange data through the network (intra-node-net, ND3003)",
            "warning: NCCL_SHM_DISABLE=1 (echoed by h): together with NCCL_P2P_LEVEL=LOC it leaves GPUs of one host "
            "only the network (NET) to talk through (intra-node-net, ND3003)"});
  // Another level keeps P2P where the path allows it.
  auto nvl = model_from({"h:1:11 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL"});
  CHECK(run_rule("env-forces-slow-path", nvl).empty());
}

TEST_CASE("loopback and docker interfaces, and exclusion lists that are fine") {
  auto lo = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to lo",
      "gpuB:200:200 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to lo",
  });
  auto f = run_rule("env-forces-slow-path", lo);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  auto docker = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to docker0",
      "gpuB:200:200 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to docker0",
  });
  f = run_rule("env-forces-slow-path", docker);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  auto excluded = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ^docker,lo",
      "gpuB:200:200 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ^docker,lo",
  });
  CHECK(run_rule("env-forces-slow-path", excluded).empty());
}

TEST_CASE("a low NCCL_NET_GDR_LEVEL explains RDMA links without GDR") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0",
      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0",
  });
  auto f = run_rule("env-forces-slow-path", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "NCCL_NET_GDR_LEVEL=LOC (echoed by gpuA): it turns GPUDirect RDMA off, which is why inter-node "
                        "RDMA links run without /GDRDMA (no-gpudirect-rdma, ND3004)");
  CHECK(f[0].related == std::vector<std::string>{"ND3004"});
  // The echo, then the link that shows the effect.
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].line == 1);
  CHECK(f[0].evidence[1].line == 2);
  auto phb = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PHB",
      "gpuB:200:200 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PHB",
  });
  CHECK(run_rule("env-forces-slow-path", phb).empty());
}

TEST_CASE("NCCL_NET_GDR_LEVEL=PIX costs nothing where every NET link carries /GDRDMA (2.27)") {
  auto m = model_from({
      "h100-c11:100:100 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PIX",
      "h100-c12:200:200 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PIX",
      "h100-c11:100:154 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      "h100-c12:200:254 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA",
      "h100-c12:200:254 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0/GDRDMA",
      "h100-c11:100:154 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
  });
  CHECK(run_rule("env-forces-slow-path", m).empty());
}

TEST_CASE("NCCL_NET_GDR_LEVEL=PIX is the explanation where NET links lack /GDRDMA, a note where none is seen") {
  auto m = model_from({
      "h100-c11:100:100 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PIX",
      "h100-c11:100:154 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/3",
      "h100-c12:200:254 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/3",
  });
  auto f = run_rule("env-forces-slow-path", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "NCCL_NET_GDR_LEVEL=PIX (echoed by h100-c11): it allows GPUDirect RDMA only between a GPU and a "
                        "NIC on the same PCIe switch, which is why inter-node RDMA links run without /GDRDMA "
                        "(no-gpudirect-rdma, ND3004)");
  CHECK(f[0].evidence.size() == 2);
  auto unseen = model_from({
      "h100-c11:100:100 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PIX",
      "h100-c12:200:200 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PIX",
  });
  f = run_rule("env-forces-slow-path", unseen);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
}

TEST_CASE("NCCL_IB_DISABLE=1 under a network plugin costs nothing; without any network evidence it is a note") {
  // aws-ofi-nccl carries the inter-node traffic (2.23.4).
  auto efa = model_from({
      "ip-10-0-12-41:100:100 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "ip-10-0-13-77:200:200 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "ip-10-0-12-41:100:100 [0] NCCL INFO Using network AWS Libfabric",
      "ip-10-0-13-77:200:200 [0] NCCL INFO Using network AWS Libfabric",
  });
  CHECK(run_rule("env-forces-slow-path", efa).empty());
  auto bare = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "gpuB:200:200 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
  });
  auto f = run_rule("env-forces-slow-path", bare);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "NCCL_IB_DISABLE=1 (echoed by gpuA, gpuB): it turns off NCCL's InfiniBand/RoCE transport, so on "
                        "this 2-host job inter-node traffic goes over TCP sockets unless a network plugin takes over; "
                        "the log shows no inter-node connection line or network choice to tell whether it costs "
                        "anything here");
}

TEST_CASE("a docker interface is only a note once ranks on different hosts connected") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to docker0",
      "gpuB:200:200 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to docker0",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA",
  });
  auto f = run_rule("env-forces-slow-path", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "NCCL_SOCKET_IFNAME=docker0 (echoed by gpuA, gpuB): 'docker0' is usually unreachable from other "
                        "hosts, yet this job's ranks on different hosts connected: harmless here, but fragile");
}
