#include "src/pipeline/live_reporter.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "checks/registry.h"
#include "src/model/model_builder.h"

using namespace nd;

namespace {

// Feeds lines one at a time, as a writer that pauses after each; returns
// what live mode printed after each line.
struct LiveRun {
  std::vector<std::string> after_line;
  std::string all() const {
    std::string out;
    for (const auto& s : after_line) out += s;
    return out;
  }
  size_t reported = 0;
};

LiveRun live(const std::vector<std::string>& lines, RuleSelection selection = {}, bool stall_at_end = false) {
  JobModel model;
  ModelBuilder builder(model);
  CheckOptions options;
  std::string printed;
  LiveReporter reporter(builder, log_rules(), selection, options, [&](std::string_view text) { printed += text; });
  uint32_t file = builder.add_file("job.log");
  LiveRun run;
  uint64_t n = 0;
  for (const std::string& text : lines) {
    builder.add_line(file, Line{text, ++n, false});
    reporter.after_merge(/*more_input=*/false);
    run.after_line.push_back(printed);
    printed.clear();
  }
  if (stall_at_end) {
    reporter.on_silence(LineRef{file, static_cast<uint32_t>(n)}, std::chrono::seconds(600));
    run.after_line.push_back(printed);
  }
  run.reported = reporter.reported();
  return run;
}

// NCCL 2.18.3 Init START of `rank` of 2 on `host`.
std::string start(const std::string& host, int rank) {
  return fmt::format("{}:{}:{} [0] NCCL INFO ncclCommInitRank comm 0x{} rank {} nranks 2 cudaDev 0 nvmlDev 0 busId "
                     "18000 commId 0xabc - Init START",
                     host, 100 + rank, 100 + rank, rank + 1, rank);
}

std::string complete(const std::string& host, int rank) {
  return fmt::format("{}:{}:{} [0] NCCL INFO ncclCommInitRank comm 0x{} rank {} nranks 2 cudaDev 0 nvmlDev 0 busId "
                     "18000 commId 0xabc - Init COMPLETE",
                     host, 100 + rank, 100 + rank, rank + 1, rank);
}

}  // namespace

TEST_CASE("a socket link is told at the line that decides it, once per host pair (2.18.3+)") {
  auto run = live({
      start("gpu009", 0),
      start("gpu028", 1),
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
      "gpu028:101:101 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
      "gpu028:101:101 [0] NCCL INFO Channel 01/0 : 1[0] -> 0[0] [send] via NET/Socket/0",
  });
  CHECK(run.after_line[0] == "");
  CHECK(run.after_line[1] == "");
  CHECK(run.after_line[2] ==
        "nccl-doctor: error: rank 0 on gpu009 -> rank 1 on gpu028, channel 00, via NET/Socket (1 connection) "
        "[ND3001 inter-node-socket]\n"
        "    job.log:3: gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n"
        "    fix: make NCCL use RDMA: unset NCCL_IB_DISABLE / NCCL_NET=Socket, install rdma-core and its provider, "
        "check ibv_devinfo\n");
  // The same pair again, the other way too: its message grows, it is not told again.
  CHECK(run.after_line[3] == "");
  CHECK(run.after_line[4] == "");
  CHECK(run.reported == 1);
}

TEST_CASE("before 2.18.3 a link is told once Init COMPLETE places it in its communicator") {
  auto run = live({
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
      "gpu028:101:101 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
      "gpu009:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu028:101:101 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  CHECK(run.after_line[0] == "");
  CHECK(run.after_line[1] == "");
  CHECK(run.after_line[2] == "");
  CHECK(run.after_line[3].starts_with(
      "nccl-doctor: error: rank 0 on gpu009 -> rank 1 on gpu028, channel 00, via NET/Socket (1 connection)"));
}

TEST_CASE("RDMA without GPUDirect is told once both halves of the link lack /GDRDMA") {
  auto run = live({
      start("gpu009", 0),
      start("gpu028", 1),
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0",
      "gpu028:101:101 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0",
      "gpu028:101:101 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0/GDRDMA",
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0",
  });
  CHECK(run.after_line[2] == "");  // the receive half may still bring /GDRDMA
  CHECK(run.after_line[3].starts_with(
      "nccl-doctor: warning: rank 0 on gpu009 -> rank 1 on gpu028, channel 00, via NET/IB (1 connection) "
      "[ND3004 no-gpudirect-rdma]\n"));
  CHECK(run.after_line[4] == "");
  CHECK(run.after_line[5] == "");  // one half has /GDRDMA: no finding
}

TEST_CASE("SHM is told once both ranks are placed and a setting explains it; NET inside one host likewise") {
  auto run = live({
      "node1:10:10 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1",
      "node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "node1:11:11 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/IPC",
  });
  // Without Init lines nothing places a rank until the end of the input.
  CHECK(run.all() == "");
  auto placed = live({
      "node1:10:10 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1",
      "node1:10:10 [0] NCCL INFO comm 0x1 rank 0 nranks 3 cudaDev 0 busId 18000 commId 0xa - Init START",
      "node1:11:11 [1] NCCL INFO comm 0x2 rank 1 nranks 3 cudaDev 1 busId 19000 commId 0xa - Init START",
      "node1:12:12 [2] NCCL INFO comm 0x3 rank 2 nranks 3 cudaDev 2 busId 1a000 commId 0xa - Init START",
      "node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "node1:11:11 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] [send] via NET/IB/0",
  });
  CHECK(placed.after_line[4] ==
        "nccl-doctor: warning: ranks 0-1 on node1, channel 00, via SHM (1 connection) [ND3002 intra-node-shm]\n"
        "    job.log:5: node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct\n"
        "    fix: unset NCCL_P2P_DISABLE or a low NCCL_P2P_LEVEL; run a node's ranks with --ipc=host; check ACS\n");
  CHECK(placed.after_line[5].starts_with(
      "nccl-doctor: error: ranks 1-2 on node1, channel 00, via NET/IB (1 connection) [ND3003 intra-node-net]\n"));
}

TEST_CASE("SHM with no setting behind it waits for the end of the input: a later P2P line may show NCCL's choice") {
  auto run = live({
      "node1:10:10 [0] NCCL INFO comm 0x1 rank 0 nranks 3 cudaDev 0 busId 18000 commId 0xa - Init START",
      "node1:11:11 [1] NCCL INFO comm 0x2 rank 1 nranks 3 cudaDev 1 busId 19000 commId 0xa - Init START",
      "node1:12:12 [2] NCCL INFO comm 0x3 rank 2 nranks 3 cudaDev 2 busId 1a000 commId 0xa - Init START",
      "node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "node1:11:11 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/IPC",
  });
  CHECK(run.all() == "");
}

TEST_CASE("disabled rules stay silent live") {
  RuleSelection selection;
  selection.disable("ND3001");
  auto run = live({start("a", 0), start("b", 1), "a:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via "
                                                  "NET/Socket/0"},
                  selection);
  CHECK(run.all() == "");
}

TEST_CASE("past kMaxPerRule findings of one rule, one note and then silence") {
  std::vector<std::string> lines;
  for (int i = 0; i < 12; ++i) {
    lines.push_back(fmt::format("host{}:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId "
                                "0x{} - Init START",
                                i, i + 10));
    lines.push_back(fmt::format("host{}:2:2 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 19000 commId "
                                "0x{} - Init START",
                                i, i + 10));
    lines.push_back(fmt::format("host{}:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0", i));
  }
  auto run = live(lines);
  CHECK(run.reported == LiveReporter::kMaxPerRule);
  CHECK(run.all().ends_with(
      "nccl-doctor: note: more ND3003 intra-node-net findings; the report at end of input lists them\n"));
}

TEST_CASE("a communicator whose ranks all completed init gets one note with its links") {
  auto run = live({
      start("gpu009", 0),
      start("gpu028", 1),
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      complete("gpu009", 0),
      complete("gpu028", 1),
      "gpu009:100:100 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f recvbuff 0x7f count 1 datatype 7 op 0 root 0 "
      "comm 0x1 [nranks=2] stream 0x5",
  });
  CHECK(run.after_line[3] == "");
  CHECK(run.after_line[4] ==
        "nccl-doctor: note: communicator 0xabc: Init COMPLETE on all 2 ranks (2 hosts); links so far: NET/IB+GDR\n");
  CHECK(run.after_line[5] == "");
}

TEST_CASE("a WARN is told at once, notes are not, a plugin WARN waits for the network NCCL takes") {
  auto run = live({
      start("gpu009", 0),
      "gpu009:100:100 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.0.11<36945> failed : "
      "Connection refused",
      "gpu009:100:100 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object "
      "file: No such file or directory.",
  });
  CHECK(run.after_line[1].starts_with("nccl-doctor: "));
  CHECK(run.after_line[1].find("[ND3120 nccl-warning]") != std::string::npos);
  CHECK(run.after_line[2] == "");
}

TEST_CASE("silence while ranks are in init is told as a hang; silence after init is not") {
  auto stuck = live({start("gpu009", 0), start("gpu028", 1), complete("gpu009", 0)}, {}, /*stall_at_end=*/true);
  CHECK(stuck.after_line[2] == "");
  CHECK(stuck.after_line[3].starts_with(
      "nccl-doctor: error: communicator 0xabc (nranks 2): rank 1 (gpu028 pid 101) printed Init START but no Init "
      "COMPLETE, and the live input stopped for 600 s (--hang-after) while it was in init: they hang (or failed) in "
      "init [ND1100 init-incomplete]\n"));
  auto done = live({start("gpu009", 0), start("gpu028", 1), complete("gpu009", 0), complete("gpu028", 1)}, {},
                   /*stall_at_end=*/true);
  CHECK(done.after_line.back().find("ND1100") == std::string::npos);
}
