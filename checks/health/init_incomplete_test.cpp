#include <algorithm>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

// NCCL 2.18.3: two ranks of four began init; the input ends there.
const std::vector<std::string> kStartedOnly = {
    "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init START",
    "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init START",
};

std::vector<std::string> with(std::vector<std::string> lines, const std::vector<std::string>& more) {
  lines.insert(lines.end(), more.begin(), more.end());
  return lines;
}

}  // namespace

TEST_CASE("2.18.3+: an input that ends during init is an excerpt, said once as a note") {
  auto m = model_from_lines(kStartedOnly);
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "the input ends before ranks 0-1 of 0xabc on gpuA "
                        "completed init: an excerpt? (ranks 2-3 of 4 of 0xabc have no line in it.) Nothing shows a "
                        "hang (no watchdog timeout, no WARN from these processes, no long silence while others went "
                        "on); if the job did hang, give its whole output");
  CHECK(f[0].ranks == std::vector<uint32_t>{0, 1});
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("a PyTorch watchdog timeout makes the unfinished init a hang") {
  auto m = model_from_lines(with(kStartedOnly, {
      "[rank0]:[E602 11:17:52.185053341 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600003 "
      "milliseconds before timing out.",
  }));
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "communicator 0xabc (nranks 4): rank 0 (gpuA pid 100), rank 1 (gpuA pid 101) printed Init "
                        "START but no Init COMPLETE, and PyTorch's watchdog reports a collective timeout: they hang (or "
                        "failed) in init; ranks 2-3 of 4 never appeared in this input");
  CHECK(f[0].comm == "0xabc");
  CHECK(f[0].evidence.size() == 3);
}

TEST_CASE("a WARN from the process after its Init START: it failed in init") {
  auto m = model_from_lines(with(kStartedOnly, {
      "",
      "gpuA:100:100 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<35411> failed : "
      "Connection refused",
  }));
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].ranks == std::vector<uint32_t>{0});
  CHECK(f[0].message.find("and the process printed an error WARN after it began init: they hang (or failed) in init") !=
        std::string::npos);
  // Rank 1 printed nothing more: still only the end of the input.
  CHECK(f[1].severity == Severity::Info);
  CHECK(f[1].ranks == std::vector<uint32_t>{1});
}

TEST_CASE("silence while the other ranks completed init and the input went on: a hang") {
  std::vector<std::string> lines = {
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init START",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init START",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
  };
  for (int i = 0; i < 200; ++i) lines.push_back("gpuB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.2<0>");
  auto f = run_rule("init-incomplete", model_from_lines(lines));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "communicator 0xabc (nranks 2): rank 0 (gpuA pid 100) printed Init START but no Init "
                        "COMPLETE, and the other ranks completed init and the input goes on for 200 lines after that "
                        "and after this process's last: they hang (or failed) in init");
}

TEST_CASE("a stall seen live with --hang-after is evidence of a hang") {
  auto m = model_from_lines(kStartedOnly);
  m.stalls.push_back({300, LineRef{0, 2}, {LineRef{0, 2}}});
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].ranks == std::vector<uint32_t>{1});
  CHECK(f[0].message.find("the live input stopped for 300 s (--hang-after) while it was in init") != std::string::npos);
}

TEST_CASE("ranks absent from a log whose other ranks completed: a partial log, not a hang") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init COMPLETE",
  });
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "communicator 0xabc (nranks 4): ranks 2-3 of 4 have no Init line in this input, yet other ranks "
                        "completed init, which needs every rank: the log is partial (output of only some ranks), not a hang");
}

TEST_CASE("before 2.18.3, ranks whose processes show ring lines but no Init line: said once, as a partial log") {
  auto m = model_from({
      "node01:2771:2801 [0] NCCL INFO Ring 00 : 1 -> 0 [receive] via NET/Socket/0",
      "node01:2771:2801 [0] NCCL INFO comm 0x7f01 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:3001:3040 [0] NCCL INFO Ring 00 : 1 -> 0 [send] via NET/Socket/0",
  });
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "communicator #0/2 (nranks 2): rank 1 of 2 has no Init line in this input, yet other ranks "
                        "completed init, which needs every rank: the log is partial (output of only some ranks), not a hang");
  // An error WARN from that process still says it failed.
  auto failed = model_from({
      "node01:2771:2801 [0] NCCL INFO Ring 00 : 1 -> 0 [receive] via NET/Socket/0",
      "node01:2771:2801 [0] NCCL INFO comm 0x7f01 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:3001:3040 [0] NCCL INFO Ring 00 : 1 -> 0 [send] via NET/Socket/0",
      "node02:3001:3040 [0] include/socket.h:390 NCCL WARN Connect to 192.168.50.11<43123> failed : Connection refused",
  });
  f = run_rule("init-incomplete", failed);
  CHECK(std::any_of(f.begin(), f.end(), [](const Finding& x) { return x.severity == Severity::Error; }));
}

TEST_CASE("before 2.18.3 there is no START: init-phase lines without COMPLETE are an excerpt's end") {
  auto m = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "node01:2771:2801 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node02:3001:3001 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.12<0>",
  });
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "the input ends before 2 processes (rank 0) on node01, node02 completed init: an excerpt? "
                        "Nothing shows a hang (no watchdog timeout, no WARN from these processes, no long silence while "
                        "others went on); if the job did hang, give its whole output");
  CHECK(f[0].hosts == std::vector<std::string>{"node01", "node02"});
}

TEST_CASE("before 2.18.3, an error WARN after the init lines makes it a failure in init; a fallback WARN does not") {
  auto m = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "",
      "node01:2771:2771 [0] include/socket.h:390 NCCL WARN Connect to 192.168.50.12<43123> failed : Connection refused",
  });
  auto f = run_rule("init-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "1 process printed init lines but never Init COMPLETE: node01 pid 2771; the process printed an "
                        "error WARN after it began init: they hang (or failed) in init");
  // NCCL goes on over sockets after this one: no failure, the input just ends.
  auto fallback = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "",
      "node01:2771:2771 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
  });
  f = run_rule("init-incomplete", fallback);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
}

TEST_CASE("the head of a large job is no hang: silence counts only after the others completed") {
  // 2.27.7, 64 ranks: the input is cut just before rank 63's Init COMPLETE.
  std::vector<std::string> lines;
  for (int r = 0; r < 64; ++r) {
    lines.push_back(fmt::format("gpu{:02d}:{}:{} [0] NCCL INFO ncclCommInitRank comm 0x{:x} rank {} nranks 64 cudaDev 0 "
                                "nvmlDev 0 busId 18000 commId 0xabc - Init START", r / 8, 100 + r, 100 + r, r + 1, r));
  }
  for (int r = 0; r < 64; ++r) {
    for (int i = 0; i < 4; ++i) {
      lines.push_back(fmt::format("gpu{:02d}:{}:{} [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.{}<0>",
                                  r / 8, 100 + r, 100 + r, r / 8));
    }
  }
  for (int r = 0; r < 63; ++r) {
    lines.push_back(fmt::format("gpu{:02d}:{}:{} [0] NCCL INFO ncclCommInitRank comm 0x{:x} rank {} nranks 64 cudaDev 0 "
                                "nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE", r / 8, 100 + r, 100 + r, r + 1, r));
  }
  auto f = run_rule("init-incomplete", model_from_lines(lines));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
}

TEST_CASE("RCCL's `localSize ... used ... bytes - Init COMPLETE` completes init") {
  auto m = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "node01:2771:2801 [0] NCCL INFO comm 0x7e7ba40 rank 0 nranks 1 cudaDev 0 busId 3000 commId 0xddf7a5357adcc52d "
      "localSize 0 used 20984624 bytes - Init COMPLETE",
  });
  CHECK(run_rule("init-incomplete", m).empty());
}

TEST_CASE("a complete log is silent") {
  auto m = model_from({
      "node01:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.50.11<0>",
      "node01:2771:2801 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node01:2771:2801 [0] NCCL INFO comm 0x7f3fd4001980 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:3001:3001 [0] NCCL INFO comm 0x7f3fd4001990 rank 1 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
  });
  CHECK(run_rule("init-incomplete", m).empty());
}

TEST_CASE("a traceback to the caller without a WARN after Init START: it failed in init") {
  auto m = model_from_lines(with(kStartedOnly, {
      "gpuA:100:100 [0] NCCL INFO init.cc:1501 -> 1",
      "gpuA:100:100 [0] NCCL INFO group.cc:64 -> 1 [Async thread]",
  }));
  auto f = run_rule("init-incomplete", m);
  REQUIRE(!f.empty());
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message.find("NCCL returned an error to the caller after it began init") != std::string::npos);
}
