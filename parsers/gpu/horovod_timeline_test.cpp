#include "parsers/gpu/horovod_timeline.h"

#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace nd;

namespace {

template <typename Lines>
std::vector<bool> feed_lines(HorovodTimelineReader& r, const Lines& lines) {
  std::vector<bool> claimed;
  uint64_t n = 0;
  for (std::string_view l : lines) claimed.push_back(r.take(l, ++n));
  r.finish();
  return claimed;
}

std::vector<bool> feed(HorovodTimelineReader& r, std::initializer_list<std::string_view> lines) {
  return feed_lines(r, lines);
}

std::vector<bool> feed(HorovodTimelineReader& r, const std::vector<std::string>& lines) { return feed_lines(r, lines); }

struct FileRead {
  GpuRecords out;
  std::vector<bool> claimed;
};

FileRead read_fixture(const std::string& name) {
  FileRead fr;
  HorovodTimelineReader r(fr.out);
  std::ifstream f(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/horovod_timeline/" + name);
  REQUIRE(f.good());
  std::string line;
  uint64_t n = 0;
  while (std::getline(f, line)) fr.claimed.push_back(r.take(line, ++n));
  r.finish();
  return fr;
}

const HorovodActivity* find(const std::vector<HorovodActivity>& v, std::string_view tensor, std::string_view activity) {
  for (const HorovodActivity& a : v) {
    if (a.tensor == tensor && a.activity == activity) return &a;
  }
  return nullptr;
}

size_t count(const std::vector<bool>& v) {
  size_t n = 0;
  for (bool b : v) n += b;
  return n;
}

constexpr std::string_view kMatMul =
    "DistributedAdamOptimizer_Allreduce/HorovodAllreduce_gradients_dense_1_MatMul_grad_MatMul_1_0";

}  // namespace

TEST_CASE("one event a line (Horovod <= 0.20): B/E nesting, rank ticks, the tensor of each pid") {
  GpuRecords out;
  HorovodTimelineReader r(out);
  auto c = feed(r, {
      "[",
      R"({"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "allreduce.noname.1"}},)",
      R"({"name": "process_sort_index", "ph": "M", "pid": 1, "args": {"sort_index": 1}},)",
      R"({"ph": "B", "name": "NEGOTIATE_ALLREDUCE", "ts": 1000, "pid": 1},)",
      R"({"ph": "X", "name": "1", "ts": 1010, "pid": 1, "dur": 0},)",
      R"({"ph": "X", "name": "0", "ts": 1090, "pid": 1, "dur": 0},)",
      R"({"ph": "E", "ts": 1100, "pid": 1},)",
      R"({"ph": "B", "name": "ALLREDUCE", "ts": 1200, "pid": 1},)",
      R"({"ph": "B", "name": "NCCL_ALLREDUCE", "ts": 1210, "pid": 1},)",
      R"({"ph": "E", "ts": 1710, "pid": 1},)",
      R"({"ph": "E", "ts": 1720, "pid": 1, "args": {"dtype": "float32", "shape": "[4]"}},)",
      R"({"ph": "X", "name": "CUSTOM_STEP", "ts": 1800, "pid": 1, "dur": 250},)",
  });
  CHECK(c == std::vector<bool>{false, true, true, true, true, true, true, true, true, true, true, true});
  CHECK(out.kinds == std::vector<SideKind>{SideKind::HorovodTimeline});
  REQUIRE(out.timelines.size() == 1);
  const HorovodTimeline& t = out.timelines[0];
  CHECK(t.line == 1);  // the `[`
  CHECK(t.events == 11);
  CHECK_FALSE(t.terminated);
  CHECK(t.first_us == 1000);
  CHECK(t.last_us == 2050);
  REQUIRE(t.activities.size() == 4);
  CHECK(t.activities[0].tensor == "allreduce.noname.1");
  CHECK(t.activities[0].activity == "NEGOTIATE_ALLREDUCE");
  CHECK(t.activities[0].total_us == 100);
  CHECK(t.activities[0].count == 1);
  CHECK(t.activities[1].activity == "ALLREDUCE");
  CHECK(t.activities[1].total_us == 520);
  CHECK(t.activities[2].activity == "NCCL_ALLREDUCE");
  CHECK(t.activities[2].total_us == 500);
  CHECK(t.activities[3].activity == "CUSTOM_STEP");
  CHECK(t.activities[3].total_us == 250);
  CHECK(t.unfinished.empty());
  CHECK(t.last_ready == std::map<uint32_t, uint64_t>{{0, 1}});
  CHECK_FALSE(t.start_time_since_epoch_us);
}

TEST_CASE("v0.16 fixture: killed during a negotiation, no closing bracket, the last write cut short") {
  FileRead fr = read_fixture("v0.16-per-line-killed.txt");
  REQUIRE(fr.out.timelines.size() == 1);
  const HorovodTimeline& t = fr.out.timelines[0];
  CHECK(t.line == 1);
  CHECK(t.events == 80);
  CHECK_FALSE(t.terminated);
  CHECK(t.first_us == 3399382);
  CHECK(t.last_us == 3409609);
  CHECK(t.activities.size() == 14);
  const HorovodActivity* nccl = find(t.activities, kMatMul, "NCCL_ALLREDUCE");
  REQUIRE(nccl);
  CHECK(nccl->total_us == 3300);
  CHECK(nccl->count == 2);
  const HorovodActivity* outer = find(t.activities, kMatMul, "ALLREDUCE");
  REQUIRE(outer);
  CHECK(outer->total_us == 4444);
  const HorovodActivity* bcast = find(t.activities, "HorovodBroadcast_global_step_0", "NCCL_BCAST");
  REQUIRE(bcast);
  CHECK(bcast->total_us == 60);
  // The negotiation rank 2 never joined.
  REQUIRE(t.unfinished.size() == 1);
  CHECK(t.unfinished[0].tensor == kMatMul);
  CHECK(t.unfinished[0].activity == "NEGOTIATE_ALLREDUCE");
  CHECK(t.unfinished[0].total_us == 67);
  CHECK(t.unfinished[0].count == 1);
  CHECK(t.last_ready == std::map<uint32_t, uint64_t>{{1, 1}, {3, 4}});
  CHECK(count(fr.claimed) == fr.claimed.size() - 1);  // all but the `[`
}

TEST_CASE("v0.28 fixture: events joined on a line, pid 0's start time, cycle markers, hierarchical allreduce") {
  FileRead fr = read_fixture("v0.28-joined-events.txt");
  REQUIRE(fr.out.timelines.size() == 1);
  const HorovodTimeline& t = fr.out.timelines[0];
  CHECK(t.events == 209);
  CHECK(t.terminated);
  CHECK(t.start_time_since_epoch_us == 1717171717000000);
  CHECK(t.first_us == 120);  // the first CYCLE_START
  CHECK(t.last_us == 33875);
  CHECK(t.activities.size() == 21);
  const HorovodActivity* mpi = find(t.activities, "allreduce.model.fc.weight", "MPI_ALLREDUCE");
  REQUIRE(mpi);
  CHECK(mpi->total_us == 5400);
  CHECK(mpi->count == 3);
  const HorovodActivity* rs = find(t.activities, "allreduce.model.fc.weight", "NCCL_REDUCESCATTER");
  REQUIRE(rs);
  CHECK(rs->total_us == 2700);
  CHECK_FALSE(find(t.activities, "allreduce.model.fc.weight", "QUEUE"));
  CHECK(t.unfinished.empty());
  CHECK(t.last_ready == std::map<uint32_t, uint64_t>{{5, 1}, {6, 8}});
  CHECK_FALSE(fr.claimed[0]);
  CHECK(count(fr.claimed) == fr.claimed.size() - 1);
}

TEST_CASE("re-saved fixture: the whole array on one line reads the same") {
  FileRead one = read_fixture("resaved-one-line.txt");
  FileRead joined = read_fixture("v0.28-joined-events.txt");
  REQUIRE(one.out.timelines.size() == 1);
  const HorovodTimeline& a = one.out.timelines[0];
  const HorovodTimeline& b = joined.out.timelines[0];
  CHECK(one.claimed == std::vector<bool>{true});
  CHECK(a.events == b.events);
  CHECK(a.terminated);
  CHECK(a.first_us == b.first_us);
  CHECK(a.last_us == b.last_us);
  REQUIRE(a.activities.size() == b.activities.size());
  for (size_t i = 0; i < a.activities.size(); ++i) {
    CHECK(a.activities[i].tensor == b.activities[i].tensor);
    CHECK(a.activities[i].activity == b.activities[i].activity);
    CHECK(a.activities[i].total_us == b.activities[i].total_us);
    CHECK(a.activities[i].count == b.activities[i].count);
  }
}

TEST_CASE("a tail of a timeline (no `[`, no metadata) opens on a timed event; pids stand in for names") {
  GpuRecords out;
  HorovodTimelineReader r(out);
  auto c = feed(r, {
      R"({"ph": "B", "name": "QUEUE", "ts": 50, "pid": 7},{"ph": "E", "ts": 80, "pid": 7}]")",
  });
  CHECK(c == std::vector<bool>{true});
  REQUIRE(out.timelines.size() == 1);
  CHECK(out.timelines[0].terminated);
  REQUIRE(out.timelines[0].activities.size() == 1);
  CHECK(out.timelines[0].activities[0].tensor == "pid 7");
  CHECK(out.timelines[0].activities[0].total_us == 30);
}

TEST_CASE("nothing else is a timeline: JSON lines, other Chrome traces, lists, metadata without `[`") {
  GpuRecords out;
  HorovodTimelineReader r(out);
  auto c = feed(r, {
      R"({"loss": 0.512, "step": 100, "lr": 0.001})",
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 5},)",
      R"({"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "allreduce.noname.1"}},)",
      R"({"ph": "B", "name": "QUEUE", "pid": 1},)",
      R"({"ph": "Q", "name": "QUEUE", "ts": 5, "pid": 1})",
      "[1, 2, 3]",
      "[",
      "  1,",
      R"({"ph": "B", "name": "QUEUE", "ts": "soon", "pid": 1})",
      "[",
      R"(  {"ph": "X", "ts": 10, "pid": 1, "tid": 4, "dur": 1, "name": "kernel"},)",
      "]",
      "| 0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |",
      "Epoch 3:  45%|####      | 450/1000 [01:02<01:16,  7.18it/s, loss=0.312]",
      R"({"ph": "B", "name": "QUEUE", "ts": 5, "pid": 1)",
  });
  CHECK(count(c) == 0);
  CHECK(out.timelines.empty());
  CHECK(out.kinds.empty());
  CHECK_FALSE(r.in_block());
}

TEST_CASE("inside a timeline, other lines are left alone; a second `[` starts the next timeline") {
  GpuRecords out;
  HorovodTimelineReader r(out);
  auto c = feed(r, {
      "[",
      R"({"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "t1"}},)",
      R"({"ph": "B", "name": "QUEUE", "ts": 10, "pid": 1},)",
      "Traceback (most recent call last):",
      "[1, 2, 3]",
      R"({"loss": 0.5})",
      R"({"ph": "E", "ts": 30, "pid": 1},)",
      "",
      "[",
      R"({"name": "process_name", "ph": "M", "pid": 0, "args": {"start_time_since_epoch_in_micros":1700000000000000}},)",
      R"({"ph": "B", "name": "NEGOTIATE_BROADCAST", "ts": 5, "pid": 1}])",
  });
  CHECK(c == std::vector<bool>{false, true, true, false, false, false, true, false, false, true, true});
  REQUIRE(out.timelines.size() == 2);
  CHECK_FALSE(out.timelines[0].terminated);
  CHECK(out.timelines[0].events == 3);
  REQUIRE(out.timelines[0].activities.size() == 1);
  CHECK(out.timelines[0].activities[0].total_us == 20);
  CHECK(out.timelines[1].line == 9);
  CHECK(out.timelines[1].terminated);
  CHECK(out.timelines[1].start_time_since_epoch_us == 1700000000000000);
  CHECK(out.timelines[1].activities.empty());
  REQUIRE(out.timelines[1].unfinished.size() == 1);
  CHECK(out.timelines[1].unfinished[0].tensor == "pid 1");
  CHECK(out.timelines[1].unfinished[0].total_us == 0);
  CHECK_FALSE(r.in_block());
}

TEST_CASE("interval union: overlaps merge, touching runs stay apart, late intervals merge or clip") {
  IntervalUnion u;
  u.add(0, 10);
  u.add(5, 15);   // a fused operation's second tensor
  u.add(15, 20);  // back to back: a second operation
  CHECK(u.length() == 20);
  CHECK(u.runs() == 2);
  u.add(30, 40);
  u.add(22, 25);  // late, between two runs
  u.add(24, 31);  // joins both
  CHECK(u.length() == 38);  // [0,15) [15,20) [22,40)
  CHECK(u.runs() == 3);
  u.add(50, 50);  // empty
  CHECK(u.runs() == 3);
  // Past kOpen runs the oldest are folded: a straggler before them counts
  // only from the last folded run's end.
  IntervalUnion v;
  for (int i = 0; i < 100; ++i) v.add(10 * i, 10 * i + 5);
  CHECK(v.runs() == 100);
  CHECK(v.length() == 500);
  v.add(0, 400);  // covers runs already folded: only [355, 400) is new
  CHECK(v.length() == 525);
  CHECK(v.runs() == 97);
}

TEST_CASE("busy time: a fused operation counts once; the phases by Horovod's names; who the others waited for") {
  GpuRecords out;
  HorovodTimelineReader r(out);
  feed(r, {
      "[",
      R"({"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "a"}},)",
      R"({"name": "process_name", "ph": "M", "pid": 2, "args": {"name": "b"}},)",
      R"({"ph": "B", "name": "NEGOTIATE_ALLREDUCE", "ts": 0, "pid": 1},)",
      R"({"ph": "X", "name": "0", "ts": 10, "pid": 1, "dur": 0},)",
      R"({"ph": "X", "name": "1", "ts": 400, "pid": 1, "dur": 0},)",
      R"({"ph": "E", "ts": 410, "pid": 1},)",
      R"({"ph": "B", "name": "NEGOTIATE_ALLREDUCE", "ts": 5, "pid": 2},)",
      R"({"ph": "X", "name": "1", "ts": 15, "pid": 2, "dur": 0},)",
      R"({"ph": "X", "name": "0", "ts": 20, "pid": 2, "dur": 0},)",
      R"({"ph": "E", "ts": 30, "pid": 2},)",
      R"({"ph": "B", "name": "ALLREDUCE", "ts": 500, "pid": 1},)",
      R"({"ph": "B", "name": "WAIT_FOR_DATA", "ts": 500, "pid": 1},)",
      R"({"ph": "E", "ts": 600, "pid": 1},)",
      R"({"ph": "B", "name": "ALLREDUCE", "ts": 500, "pid": 2},)",
      R"({"ph": "B", "name": "WAIT_FOR_OTHER_TENSOR_DATA", "ts": 500, "pid": 2},)",
      R"({"ph": "E", "ts": 700, "pid": 2},)",
      R"({"ph": "B", "name": "QUEUE", "ts": 700, "pid": 1},)",
      R"({"ph": "E", "ts": 750, "pid": 1},)",
      R"({"ph": "B", "name": "QUEUE", "ts": 700, "pid": 2},)",
      R"({"ph": "E", "ts": 750, "pid": 2},)",
      R"({"ph": "B", "name": "MEMCPY_IN_FUSION_BUFFER", "ts": 750, "pid": 1},)",
      R"({"ph": "E", "ts": 800, "pid": 1},)",
      R"({"ph": "B", "name": "MEMCPY_IN_FUSION_BUFFER", "ts": 751, "pid": 2},)",
      R"({"ph": "E", "ts": 801, "pid": 2},)",
      R"({"ph": "B", "name": "NCCL_ALLREDUCE", "ts": 800, "pid": 1},)",
      R"({"ph": "E", "ts": 1800, "pid": 1},)",
      R"({"ph": "B", "name": "NCCL_ALLREDUCE", "ts": 801, "pid": 2},)",
      R"({"ph": "E", "ts": 1801, "pid": 2},)",
      R"({"ph": "B", "name": "MEMCPY_OUT_FUSION_BUFFER", "ts": 1800, "pid": 1},)",
      R"({"ph": "E", "ts": 1850, "pid": 1},)",
      R"({"ph": "B", "name": "MEMCPY_OUT_FUSION_BUFFER", "ts": 1801, "pid": 2},)",
      R"({"ph": "E", "ts": 1851, "pid": 2},)",
      R"({"ph": "E", "ts": 1852, "pid": 1},)",
      R"({"ph": "E", "ts": 1852, "pid": 2}])",
  });
  REQUIRE(out.timelines.size() == 1);
  const HorovodBusy& b = out.timelines[0].busy;
  CHECK(b.negotiate_us == 410);
  CHECK(b.data_wait_us == 200);
  CHECK(b.queue_us == 50);
  CHECK(b.fusion_copy_us == 102);
  CHECK(b.collective_us == 1001);
  CHECK(b.comm_us == 1151);
  CHECK(b.comm_negotiate_us == 1561);
  CHECK(b.collectives == 1);
  CHECK(b.fusion_copies_in == 1);
  // Per tensor, the fused allreduce is there twice.
  const HorovodActivity* a = find(out.timelines[0].activities, "a", "NCCL_ALLREDUCE");
  REQUIRE(a);
  CHECK(a->total_us == 1000);
  CHECK(out.timelines[0].last_ready == std::map<uint32_t, uint64_t>{{0, 1}, {1, 1}});
  CHECK(out.timelines[0].last_ready_wait_us == std::map<uint32_t, double>{{0, 5}, {1, 390}});
}

TEST_CASE("activity phases") {
  CHECK(horovod_phase("NEGOTIATE_ALLGATHER") == HorovodPhase::Negotiate);
  CHECK(horovod_phase("WAIT_FOR_OTHER_TENSOR_DATA") == HorovodPhase::WaitForData);
  CHECK(horovod_phase("QUEUE") == HorovodPhase::Queue);
  CHECK(horovod_phase("MEMCPY_OUT_FUSION_BUFFER") == HorovodPhase::FusionCopy);
  for (const char* c : {"NCCL_ALLREDUCE", "NCCL_REDUCESCATTER", "MPI_ALLREDUCE", "MPI_ADASUM_ALLREDUCE", "GLOO_BCAST",
                        "CCL_ALLGATHER", "MEMCPY_IN_HOST_BUFFER"})
    CHECK(horovod_phase(c) == HorovodPhase::Collective);
  for (const char* o : {"ALLREDUCE", "INIT_NCCL", "ALLOCATE_OUTPUT", "INIT_FUSION_BUFFER", "CUSTOM_STEP", "NCCL_"})
    CHECK(horovod_phase(o) == HorovodPhase::Other);
}

TEST_CASE("the wait for the last rank counts once for the tensors of one cycle; impossible numbers are no time") {
  GpuRecords out;
  HorovodTimelineReader r(out);
  std::vector<std::string> lines{"["};
  for (int pid = 1; pid <= 3; ++pid) {
    lines.push_back(fmt::format(R"({{"ph": "B", "name": "NEGOTIATE_ALLREDUCE", "ts": 0, "pid": {}}},)", pid));
    lines.push_back(fmt::format(R"({{"ph": "X", "name": "0", "ts": 10, "pid": {}, "dur": 0}},)", pid));
    lines.push_back(fmt::format(R"({{"ph": "X", "name": "1", "ts": 110, "pid": {}, "dur": 0}},)", pid));
    lines.push_back(fmt::format(R"({{"ph": "E", "ts": 120, "pid": {}}},)", pid));
  }
  lines.push_back(R"({"ph": "X", "name": "NCCL_ALLREDUCE", "ts": -1e400, "pid": 1, "dur": 5},)");
  lines.push_back(R"({"ph": "X", "name": "NCCL_ALLREDUCE", "ts": 130, "pid": 1, "dur": 1e400}])");
  feed(r, lines);
  REQUIRE(out.timelines.size() == 1);
  CHECK(out.timelines[0].last_ready == std::map<uint32_t, uint64_t>{{1, 3}});
  CHECK(out.timelines[0].last_ready_wait_us == std::map<uint32_t, double>{{1, 100}});
  CHECK(out.timelines[0].last_us <= 130);  // never infinite
  CHECK(out.timelines[0].busy.collective_us == 0);
}
