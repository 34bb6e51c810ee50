#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/health/health_rules.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("2.18.3+: a rank with Init START and no COMPLETE is named with host and pid; absent ranks too") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init START",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init START",
  });
  auto f = run_rule<InitIncomplete>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "communicator 0xabc (nranks 4): rank 0 (gpuA pid 100), rank 1 (gpuA pid 101) printed Init START "
                        "but no Init COMPLETE; ranks 2-3 of 4 never appeared: they did not reach NCCL init (crashed, not "
                        "launched, or a different NCCL_COMM_ID), or their output is not in this input");
  CHECK(f[0].ranks == std::vector<uint32_t>{0, 1});
  CHECK(f[0].comm == "0xabc");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("ranks absent from a log whose other ranks completed: a partial log, not a hang") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init COMPLETE",
  });
  auto f = run_rule<InitIncomplete>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "communicator 0xabc (nranks 4): ranks 2-3 of 4 have no Init line in this input, yet other ranks "
                        "completed init, which needs every rank: the log is partial (output of only some ranks), not a hang");
}

TEST_CASE("before 2.18.3 there is no START: init-phase lines without COMPLETE name the process") {
  auto m = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "node01:2771:2801 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node02:3001:3001 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.12<0>",
  });
  auto f = run_rule<InitIncomplete>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "2 processes printed init lines but never Init COMPLETE: rank 0 (node01 pid 2771), node02 pid "
                        "3001; no process completed init: the job hangs (or died) in init");
  CHECK(f[0].hosts == std::vector<std::string>{"node01", "node02"});
}

TEST_CASE("a complete log is silent") {
  auto m = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "node01:2771:2801 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node01:2771:2801 [0] NCCL INFO comm 0x7f3fd4001980 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:3001:3001 [0] NCCL INFO comm 0x7f3fd4001990 rank 1 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
  });
  CHECK(run_rule<InitIncomplete>(m).empty());
}
