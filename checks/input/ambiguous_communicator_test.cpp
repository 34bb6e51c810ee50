#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

// NCCL 2.27.7: the process is rank 0 of two communicators.
TEST_CASE("runtime connections of a process that is the same rank in two communicators") {
  auto two = model_from({
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init START",
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init COMPLETE",
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x3 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xdef - Init START",
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x3 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xdef - Init COMPLETE",
      "gpuA:100:140 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
  });
  CHECK(messages(run_rule("ambiguous-communicator", two)) ==
        std::vector<std::string>{"info: 1 connection line matched several communicators of the same process (runtime "
                                 "connections without a communicator id); each was assigned to the most recently "
                                 "created one"});
  auto one = model_from({
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init START",
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init COMPLETE",
      "gpuA:100:140 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
  });
  CHECK(run_rule("ambiguous-communicator", one).empty());
}
