#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

// NCCL 2.18.3 lines: two hosts with two GPUs each, gpuA with two NICs. Every
// rank prints its lines on both channels: the log shows gpuA's links whole.
namespace {

std::vector<std::string> two_channel_ring(const std::string& gpu_b_nic) {
  std::vector<std::string> lines = {
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init START",
      "gpuB:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuB:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init START",
  };
  for (std::string ch : {"00", "01"}) {
    lines.push_back("gpuA:100:100 [0] NCCL INFO Channel " + ch + "/0 : 0[0] -> 1[1] via P2P/IPC/read");
    lines.push_back("gpuA:101:101 [1] NCCL INFO Channel " + ch + "/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA");
    lines.push_back("gpuB:200:200 [0] NCCL INFO Channel " + ch + "/0 : 1[1] -> 2[0] [receive] via NET/IB/0/GDRDMA");
    lines.push_back("gpuB:200:200 [0] NCCL INFO Channel " + ch + "/0 : 2[0] -> 3[1] via P2P/IPC/read");
    lines.push_back("gpuB:201:201 [1] NCCL INFO Channel " + ch + "/0 : 3[1] -> 0[0] [send] via NET/IB/" + gpu_b_nic +
                    "/GDRDMA");
    lines.push_back("gpuA:100:100 [0] NCCL INFO Channel " + ch + "/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA");
  }
  return lines;
}

}  // namespace

TEST_CASE("rail-shared-nic fires when two GPUs share a NIC and the other NIC is idle") {
  auto f = run_rule("rail-shared-nic", model_from_lines(two_channel_ring("1")));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "gpuA: GPU 0 and GPU 1 send inter-node traffic through NIC mlx5_0 (NET/IB/0) while mlx5_1 carries none");
  CHECK(f[0].hosts == std::vector<std::string>{"gpuA"});
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].line == 7);
  CHECK(f[0].evidence[1].line == 11);
}

TEST_CASE("rail-shared-nic: an excerpt proves no NIC idle") {
  // Channel 01 of rank 0 is missing: its lines there might use mlx5_1.
  std::vector<std::string> lines = two_channel_ring("1");
  lines.erase(lines.begin() + 5 + 6 + 5);
  lines.erase(lines.begin() + 5 + 6);
  CHECK(run_rule("rail-shared-nic", model_from_lines(lines)).empty());
}

TEST_CASE("rail-shared-nic: one NIC per GPU, a single NIC, or no device list do not fire") {
  auto aligned = model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/IB/0/GDRDMA",
      "gpuA:101:101 [1] NCCL INFO Channel 01/0 : 1[1] -> 3[1] [send] via NET/IB/1/GDRDMA",
  });
  CHECK(run_rule("rail-shared-nic", aligned).empty());
  auto one_nic = model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/IB/0/GDRDMA",
      "gpuA:101:101 [1] NCCL INFO Channel 01/0 : 1[1] -> 3[1] [send] via NET/IB/0/GDRDMA",
  });
  CHECK(run_rule("rail-shared-nic", one_nic).empty());
  auto unlisted = model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/IB/0/GDRDMA",
      "gpuA:101:101 [1] NCCL INFO Channel 01/0 : 1[1] -> 3[1] [send] via NET/IB/0/GDRDMA",
  });
  CHECK(run_rule("rail-shared-nic", unlisted).empty());
}
