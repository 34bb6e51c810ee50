#include <doctest/doctest.h>

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

// Training steps as a Horovod 0.20 timeline writes them on rank 0 of 4
// ranks: `[`, then one event a line. Each step computes `fwd_us` with no
// collective, then `ops` operations, `gap_us` apart, of `fused` tensors
// each: the negotiation, WAIT_FOR_DATA, QUEUE until the previous operation
// ends, the fusion-buffer copies when fused, NCCL_ALLREDUCE.
struct Steps {
  int steps = 4;
  double step_us = 40000, fwd_us = 8000;
  int ops = 5;
  double op_us = 5000, gap_us = 2000, wait_us = 200;
  int fused = 1;
  std::optional<int> straggler;  // the rank that ticks `late_us` after the others
  double late_us = 0;
  std::string bcast;             // the collective's name, NCCL_ALLREDUCE unless set
};

std::vector<std::string> timeline(const Steps& s, const std::vector<std::string>& names) {
  std::vector<std::string> out = {"["};
  std::vector<std::string> seen;
  auto pid = [&](const std::string& t) {
    for (size_t i = 0; i < seen.size(); ++i) {
      if (seen[i] == t) return i + 1;
    }
    seen.push_back(t);
    out.push_back(fmt::format(R"({{"name": "process_name", "ph": "M", "pid": {}, "args": {{"name": "{}"}}}},)",
                              seen.size(), t));
    return seen.size();
  };
  auto ev = [&](const char* ph, const std::string& t, double ts, std::string_view name = {}) {
    size_t p = pid(t);
    std::string named = name.empty() ? "" : fmt::format(R"(, "name": "{}")", name);
    std::string dur = std::string_view(ph) == "X" ? R"(, "dur": 0)" : "";
    out.push_back(fmt::format(R"({{"ph": "{}"{}, "ts": {:.0f}, "pid": {}{}}},)", ph, named, ts, p, dur));
  };
  std::string op = s.bcast.empty() ? "NCCL_ALLREDUCE" : s.bcast;
  double copy = s.fused > 1 ? 150 : 0;
  for (int step = 0; step < s.steps; ++step) {
    double start = 1'000'000 + step * s.step_us, prev_end = start;
    for (int o = 0; o < s.ops; ++o) {
      double ready = start + s.fwd_us + o * s.gap_us;
      double negotiated = ready + 20 + (s.straggler ? s.late_us : 0);
      double begin = negotiated + 10, data = begin + s.wait_us, queued = std::max(data, prev_end);
      double nccl = queued + copy, done = nccl + s.op_us, end = done + copy;
      prev_end = end;
      for (int k = 0; k < s.fused; ++k) {
        const std::string& t = names[(o * s.fused + k) % names.size()];
        ev("B", t, ready, "NEGOTIATE_ALLREDUCE");
        int tick = 0;
        for (int r = 0; r < 4; ++r) {
          if (s.straggler != r) ev("X", t, ready + 2 + tick++, std::to_string(r));
        }
        if (s.straggler) ev("X", t, negotiated - 2, std::to_string(*s.straggler));
        ev("E", t, negotiated);
        ev("B", t, begin, "ALLREDUCE");
        ev("B", t, begin, "WAIT_FOR_DATA");
        ev("E", t, data);
        ev("B", t, data, "QUEUE");
        ev("E", t, queued);
        if (copy > 0) {
          ev("B", t, queued, "MEMCPY_IN_FUSION_BUFFER");
          ev("E", t, nccl);
        }
        ev("B", t, nccl, op);
        ev("E", t, done);
        if (copy > 0) {
          ev("B", t, done, "MEMCPY_OUT_FUSION_BUFFER");
          ev("E", t, end);
        }
        ev("E", t, end + 2);
      }
    }
  }
  out.back().pop_back();  // the last `,`
  out.push_back("]");
  return out;
}

const std::vector<std::string> kConv = {"HorovodAllreduce_conv1_weight_0", "HorovodAllreduce_conv2_weight_0",
                                        "HorovodAllreduce_conv3_weight_0", "HorovodAllreduce_fc_weight_0",
                                        "HorovodAllreduce_fc_bias_0"};

std::vector<Finding> judge(const Steps& s, const std::vector<std::string>& names = kConv) {
  return run_rule("comm-bound", model_from_lines(timeline(s, names), "timeline.json"));
}

}  // namespace

TEST_CASE("comm-bound: allreduce under way most of every step, large operations") {
  auto found = judge(Steps{});
  CHECK(messages(found) == std::vector<std::string>{
          "info: Horovod timeline: collectives under way 69 % of its 145.2 ms, part of it perhaps hidden under the backward "
          "pass (the operations "
          "themselves 69 %, one queued behind another 50 %, fusion-buffer copies 0 %); waiting for the "
          "GPUs' data 3 %, for other ranks 0 %; most time in HorovodAllreduce_conv1_weight_0 (20.0 ms), "
          "HorovodAllreduce_conv2_weight_0 (20.0 ms), HorovodAllreduce_conv3_weight_0 (20.0 ms); 20 "
          "collectives of 5.0 ms on average, none through the fusion buffer: each step sends more than "
          "the links carry while the GPUs compute: send less per step (gradient accumulation or a larger "
          "batch per GPU, hvd.Compression.fp16) and measure the fabric with all_reduce_perf (ND6020)"});
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].file == "timeline.json");
  CHECK(found[0].evidence[0].line == 1);
}

TEST_CASE("comm-bound: many short operations, fused: fuse more") {
  Steps s;
  s.steps = 8;
  s.step_us = 20000;
  s.ops = 20;
  s.op_us = 400;
  s.gap_us = 500;
  s.fused = 2;
  auto names = kConv;
  for (int i = 0; i < 40; ++i) names.push_back(fmt::format("allreduce.blocks.{}.weight", i));
  CHECK(messages(judge(s, names)) == std::vector<std::string>{
          "info: Horovod timeline: collectives under way 73 % of its 154.2 ms, part of it perhaps hidden under the backward "
          "pass (the operations "
          "themselves 41 %, one queued behind another 64 %, fusion-buffer copies 31 %); waiting for the "
          "GPUs' data 21 %, for other ranks 0 %; most time in HorovodAllreduce_conv1_weight_0 (3.2 ms), "
          "HorovodAllreduce_conv2_weight_0 (3.2 ms), HorovodAllreduce_conv3_weight_0 (3.2 ms); 160 "
          "collectives of 400 us on average, 160 through the fusion buffer, 2.0 tensors each: operations "
          "this short pay latency, not bandwidth: fuse more tensors into each (raise "
          "HOROVOD_FUSION_THRESHOLD, default 128 MiB, and HOROVOD_CYCLE_TIME, default 1 ms; or let "
          "HOROVOD_AUTOTUNE=1 choose them)"});
}

TEST_CASE("comm-bound: many short operations, none fused") {
  Steps s;
  s.steps = 8;
  s.step_us = 20000;
  s.ops = 20;
  s.op_us = 600;
  s.gap_us = 500;
  CHECK(messages(judge(s)) == std::vector<std::string>{
          "info: Horovod timeline: collectives under way 63 % of its 152.2 ms, part of it perhaps hidden under the backward "
          "pass (the operations "
          "themselves 63 %, one queued behind another 52 %, fusion-buffer copies 0 %); waiting for the "
          "GPUs' data 21 %, for other ranks 0 %; most time in HorovodAllreduce_conv1_weight_0 (19.2 ms), "
          "HorovodAllreduce_conv2_weight_0 (19.2 ms), HorovodAllreduce_conv3_weight_0 (19.2 ms); 160 "
          "collectives of 600 us on average, none through the fusion buffer: operations this short pay "
          "latency, not bandwidth: fuse more tensors into each (raise HOROVOD_FUSION_THRESHOLD, which 0 "
          "turns off, default 128 MiB, and HOROVOD_CYCLE_TIME, default 1 ms; or let HOROVOD_AUTOTUNE=1 "
          "choose them)"});
}

TEST_CASE("comm-bound: a straggler the others wait for") {
  Steps s;
  s.step_us = 60000;
  s.fwd_us = 30000;
  s.ops = 3;
  s.op_us = 1000;
  s.gap_us = 8000;
  s.straggler = 2;
  s.late_us = 4000;
  CHECK(messages(judge(s)) == std::vector<std::string>{
          "warning: Horovod timeline: rank 2 was the last ready in 12 of 12 negotiations, and the others "
          "waited 48.2 ms for it (24 % of the timeline's 201.2 ms): a straggler; check rank 2's GPU "
          "(clocks, throttling: ND6006), its host's CPU load and its input pipeline"});
}

TEST_CASE("comm-bound: a compute-bound job, an excerpt and the start-up broadcast say nothing") {
  Steps compute;
  compute.step_us = 100000;
  compute.fwd_us = 30000;
  compute.ops = 3;
  compute.op_us = 2000;
  compute.gap_us = 20000;
  compute.wait_us = 3000;
  compute.fused = 3;
  CHECK(judge(compute).empty());
  // Just under half the span in collectives.
  Steps half;
  half.op_us = 3400;
  CHECK(judge(half).empty());
  // Comm-bound, but 80 ms: too short to judge.
  Steps excerpt;
  excerpt.steps = 2;
  CHECK(judge(excerpt).empty());
  Steps bcast;
  bcast.bcast = "NCCL_BCAST";
  CHECK(judge(bcast).empty());
  // Ranks ticking in the same cycle: the last one read adds nothing.
  Steps balanced = compute;
  balanced.straggler = 3;
  balanced.late_us = 0;
  CHECK(judge(balanced).empty());
}
