#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("uneven-ranks-per-host: 2 ranks on one host, 1 on the other (NCCL 2.5)") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 3 cudaDev 1 busId 2a000 - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 2 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  auto f = run_rule("uneven-ranks-per-host", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "2 hosts hold between 1 and 2 ranks each (gpu01 2, gpu02 1) in the job's whole communicator: "
                        "usually a launcher mistake that leaves GPUs idle, and NCCL drops its per-node send/recv "
                        "schedule");
  CHECK(f[0].hosts == std::vector<std::string>{"gpu01", "gpu02"});
}

TEST_CASE("uneven-ranks-per-host: even hosts, and a log that lacks a rank, are silent") {
  auto even = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 1 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  CHECK(run_rule("uneven-ranks-per-host", even).empty());
  auto missing = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 4 cudaDev 1 busId 2a000 - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 2 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  CHECK(run_rule("uneven-ranks-per-host", missing).empty());
}

TEST_CASE("uneven-ranks-per-host: an uneven sub-communicator of an even job costs nothing (NCCL 2.21)") {
  // The 4-rank world is 2+2; a 3-rank group (a pipeline stage, a PyTorch subgroup) spans both hosts.
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0xaaa - Init COMPLETE",
      "gpu01:101:101 [1] NCCL INFO ncclCommInitRank comm 0x11 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xaaa - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO ncclCommInitRank comm 0x20 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0xaaa - Init COMPLETE",
      "gpu02:201:201 [1] NCCL INFO ncclCommInitRank comm 0x21 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xaaa - Init COMPLETE",
      "gpu01:100:100 [0] NCCL INFO ncclCommSplit comm 0x30 rank 0 nranks 3 cudaDev 0 nvmlDev 0 busId 18000 commId 0xbbb - Init COMPLETE",
      "gpu01:101:101 [1] NCCL INFO ncclCommSplit comm 0x31 rank 1 nranks 3 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xbbb - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO ncclCommSplit comm 0x40 rank 2 nranks 3 cudaDev 0 nvmlDev 0 busId 18000 commId 0xbbb - Init COMPLETE",
  });
  CHECK(run_rule("uneven-ranks-per-host", m).empty());
}
