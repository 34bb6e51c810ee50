#include <doctest/doctest.h>
#include <fmt/format.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "checks/registry.h"
#include "src/pipeline/live_monitor.h"
#include "src/model/model_builder.h"

using namespace nd;

namespace {

// Feeds lines one by one; returns what the monitor printed after each line.
struct LiveRun {
  std::vector<std::string> after_line;
  std::string all() const {
    std::string out;
    for (const auto& s : after_line) out += s;
    return out;
  }
};

LiveRun live(std::initializer_list<std::string_view> lines, RuleSelection selection = {}) {
  JobModel model;
  ModelBuilder builder(model);
  CheckOptions options;
  std::string printed;
  LiveMonitor monitor(log_rules(), selection, options, [&](std::string_view text) { printed += text; });
  builder.set_observer([&](LineRef ref, std::string_view raw, const NcclHeader& h, const Event& ev) {
    monitor.on_event("job.log", ref, raw, h, ev);
  });
  uint32_t file = builder.add_file("job.log");
  LiveRun run;
  uint64_t n = 0;
  for (std::string_view text : lines) {
    Line line{text, ++n, false};
    builder.add_line(file, line);
    run.after_line.push_back(printed);
    printed.clear();
  }
  return run;
}

}  // namespace

TEST_CASE("a socket link is reported at the line that places its second host, once") {
  auto run = live({
      "gpu009:100:100 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/3",
      "gpu009:100:100 [7] NCCL INFO Channel 01/0 : 7[7] -> 8[0] [send] via NET/Socket/3",
      "gpu028:200:200 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [receive] via NET/Socket/0",
      "gpu028:200:200 [0] NCCL INFO Channel 01/0 : 7[7] -> 8[0] [receive] via NET/Socket/0",
      "gpu028:207:207 [7] NCCL INFO Channel 00/0 : 15[7] -> 0[0] [send] via NET/Socket/3",
  });
  CHECK(run.after_line[0] == "");
  CHECK(run.after_line[1] == "");
  CHECK(run.after_line[2] ==
        "nccl-doctor: error: rank 7 on gpu009 -> rank 8 on gpu028, channel 00, via NET/Socket "
        "[ND3001 inter-node-socket]\n"
        "    job.log:1: gpu009:100:100 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/3\n"
        "    job.log:3: gpu028:200:200 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [receive] via NET/Socket/0\n");
  // The same host pair again, in either direction: already reported.
  CHECK(run.after_line[3] == "");
  CHECK(run.after_line[4] == "");
}

TEST_CASE("hosts known from Init START decide a link at its own line (2.18.3+)") {
  auto run = live({
      "gpu009:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init START",
      "gpu028:200:200 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init START",
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0",
      "gpu028:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0",
      "gpu028:200:200 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0/GDRDMA",
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0",
  });
  CHECK(run.after_line[2] == "");  // the receive half may still have /GDRDMA
  CHECK(run.after_line[3] ==
        "nccl-doctor: warning: rank 0 on gpu009 -> rank 1 on gpu028, channel 00, via NET/IB "
        "[ND3004 no-gpudirect-rdma]\n"
        "    job.log:4: gpu028:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0\n");
  CHECK(run.after_line[4] == "");
  CHECK(run.after_line[5] == "");  // one half has /GDRDMA: not a finding
}

TEST_CASE("SHM is decided by its line alone; NET inside one host once both ranks are placed") {
  auto run = live({
      "node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "node1:10:10 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "node1:11:11 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] [send] via NET/IB/0",
      "node1:12:12 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via P2P/IPC",
  });
  CHECK(run.after_line[0] ==
        "nccl-doctor: warning: rank 0 -> rank 1 on node1, channel 00, via SHM [ND3002 intra-node-shm]\n"
        "    job.log:1: node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct\n");
  CHECK(run.after_line[1] == "");
  CHECK(run.after_line[2] == "");
  CHECK(run.after_line[3] ==
        "nccl-doctor: error: rank 1 -> rank 2 on node1, channel 00, via NET/IB [ND3003 intra-node-net]\n"
        "    job.log:3: node1:11:11 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] [send] via NET/IB/0\n"
        "    job.log:4: node1:12:12 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via P2P/IPC\n");
}

TEST_CASE("disabled rules stay silent live") {
  RuleSelection selection;
  selection.disable("ND3002");
  auto run = live({"node1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct"}, selection);
  CHECK(run.all() == "");
}

TEST_CASE("a rank claimed by two hosts in one communicator decides nothing live") {
  auto run = live({
      "a:1:1 [0] NCCL INFO Channel 00 : 0[0] -> 1[0] via NET/Socket/0",
      "b:2:2 [0] NCCL INFO Channel 00 : 1[0] -> 0[0] via NET/Socket/0",
  });
  CHECK(run.after_line[1].starts_with("nccl-doctor: error: rank 0 on a -> rank 1 on b"));
  auto conflict = live({
      "a:1:1 [0] NCCL INFO Channel 00 : 0[0] -> 1[0] via NET/Socket/0",
      "c:3:3 [0] NCCL INFO Channel 00 : 0[0] -> 1[0] via NET/Socket/0",
      "b:2:2 [0] NCCL INFO Channel 00 : 1[0] -> 0[0] via NET/Socket/0",
  });
  CHECK(conflict.all() == "");
}

TEST_CASE("past kMaxPerRule findings of one rule, one note and then silence") {
  std::vector<std::string> lines;
  for (int i = 0; i < 12; ++i) {
    lines.push_back(fmt::format("host{}:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct", i));
  }
  JobModel model;
  ModelBuilder builder(model);
  CheckOptions options;
  std::string printed;
  RuleSelection all;
  LiveMonitor monitor(log_rules(), all, options, [&](std::string_view text) { printed += text; });
  builder.set_observer([&](LineRef ref, std::string_view raw, const NcclHeader& h, const Event& ev) {
    monitor.on_event("job.log", ref, raw, h, ev);
  });
  uint32_t file = builder.add_file("job.log");
  uint64_t n = 0;
  for (const auto& text : lines) {
    Line line{text, ++n, false};
    builder.add_line(file, line);
  }
  CHECK(monitor.reported() == LiveMonitor::kMaxPerRule);
  CHECK(printed.ends_with(
      "nccl-doctor: note: more ND3002 intra-node-shm findings; the report at end of input lists them\n"));
}

TEST_CASE("a communicator whose ranks all completed init gets one note with its links") {
  auto run = live({
      "gpu009:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init START",
      "gpu028:200:200 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init START",
      "gpu009:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      "gpu009:100:100 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init COMPLETE",
      "gpu028:200:200 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0xabc - Init COMPLETE",
  });
  CHECK(run.after_line[3] == "");
  CHECK(run.after_line[4] ==
        "nccl-doctor: note: communicator 0xabc: Init COMPLETE on all 2 ranks (2 hosts); links so far: "
        "NET/IB/GDRDMA\n");
}

TEST_CASE("lines that name no host decide nothing live; their WARN says host unknown") {
  // NCCL 2.19.3 lines that lost host:pid:tid: every rank would share the
  // empty host, and NET between them would read as intra-node.
  auto run = live({
      "[0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "[1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0",
      "[0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/0",
      "[0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.0.11<36945> failed",
  });
  CHECK(run.after_line[0] == "");
  CHECK(run.after_line[1] == "");
  CHECK(run.after_line[2] == "");
  CHECK(run.after_line[3] ==
        "nccl-doctor: warning: NCCL WARN on host unknown (pid unknown, device 0): socketStartConnect: Connect to "
        "10.1.0.11<36945> failed [ND3120 nccl-warning]\n"
        "    job.log:4: [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.0.11<36945> failed\n");
}
