#include "parsers/gpu/nccl_tests.h"

#include <doctest/doctest.h>

#include <fstream>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

using namespace nd;

namespace {

// Feeds lines numbered from 1; returns which ones the reader claimed.
std::vector<bool> feed(NcclTestsReader& r, std::initializer_list<std::string_view> lines) {
  std::vector<bool> claimed;
  uint64_t n = 0;
  for (std::string_view l : lines) claimed.push_back(r.take(l, ++n));
  r.finish();
  return claimed;
}

struct FileRead {
  GpuRecords out;
  std::vector<bool> claimed;  // [line - 1]
  std::vector<std::string> lines;
};

FileRead read_fixture(const std::string& name) {
  FileRead fr;
  NcclTestsReader r(fr.out);
  std::ifstream f(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/nccl_tests/" + name);
  REQUIRE(f.good());
  std::string line;
  while (std::getline(f, line)) {
    fr.lines.push_back(line);
    fr.claimed.push_back(r.take(line, fr.lines.size()));
  }
  r.finish();
  return fr;
}

size_t count(const std::vector<bool>& v) {
  size_t n = 0;
  for (bool b : v) n += b;
  return n;
}

}  // namespace

TEST_CASE("v2.17.4: version, starting line, Group rank lines, #wrong table, footer, concluded") {
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {
      "# nccl-tests version 2.17.4 nccl-headers=22703 nccl-library=22605",
      "# Collective test starting: all_reduce_perf",
      "# nThread 1 nGpus 1 minBytes 1073741824 maxBytes 2147483648 step: 2(factor) warmup iters: 5 iters: 30 agg iters: 1 validation: 1 graph: 0",
      "#",
      "# Using devices",
      "#  Rank  0 Group  0 Pid 1789224 on H20-GPU-05 device  0 [0000:18:00] NVIDIA H20-3e",
      "#  Rank  1 Group  0 Pid 1789225 on H20-GPU-05 device  1 [0000:2a:00] NVIDIA H20-3e",
      "#",
      "#                                                              out-of-place                       in-place          ",
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ",
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         ",
      "  1073741824     268435456     float     sum      -1  5123.41  209.57  209.57       0  5120.02  209.71  209.71       0",
      "  2147483648     536870912     float     sum      -1    10213  210.26  210.26       0    10199  210.55  210.55     N/A",
      "# Out of bounds values : 0 OK",
      "# Avg bus bandwidth    : 210.023 ",
      "#",
      "# Collective test concluded: all_reduce_perf",
  });
  CHECK(count(c) == c.size());
  REQUIRE(out.nccl_tests.size() == 1);
  CHECK(out.kinds == std::vector<SideKind>{SideKind::NcclTests});
  const NcclTestsRun& run = out.nccl_tests[0];
  CHECK(run.line == 1);
  CHECK(run.op == "all_reduce");
  CHECK(run.version == "2.17.4");
  CHECK(run.nccl_headers == 22703u);
  CHECK(run.nccl_library == 22605u);
  CHECK(run.nthread == 1u);
  CHECK(run.ngpus == 1u);
  CHECK(run.min_bytes == 1073741824u);
  CHECK(run.max_bytes == 2147483648u);
  REQUIRE(run.ranks.size() == 2);
  CHECK(run.ranks[1].rank == 1);
  CHECK(run.ranks[1].group == 0u);
  CHECK(run.ranks[1].pid == 1789225u);
  CHECK(run.ranks[1].host == "H20-GPU-05");
  CHECK(run.ranks[1].device == 1);
  CHECK(run.ranks[1].bus == "0000:2a:00");
  CHECK(run.ranks[1].name == "NVIDIA H20-3e");
  REQUIRE(run.rows.size() == 2);
  const NcclTestsRow& a = run.rows[0];
  CHECK(a.line == 12);
  CHECK(a.size_bytes == 1073741824u);
  CHECK(a.count == 268435456u);
  CHECK(a.type == "float");
  CHECK(a.redop == "sum");
  CHECK(a.root == -1);
  CHECK(a.oop_time_us == doctest::Approx(5123.41));
  CHECK(a.oop_algbw_gbs == doctest::Approx(209.57));
  CHECK(a.oop_busbw_gbs == doctest::Approx(209.57));
  CHECK(a.oop_wrong == 0u);
  CHECK_FALSE(a.oop_error);
  CHECK(a.ip_time_us == doctest::Approx(5120.02));
  CHECK(a.ip_busbw_gbs == doctest::Approx(209.71));
  CHECK(a.ip_wrong == 0u);
  CHECK(a.timestamp.empty());
  CHECK(run.rows[1].oop_time_us == doctest::Approx(10213));
  CHECK_FALSE(run.rows[1].ip_wrong);  // N/A
  CHECK(run.out_of_bounds == 0u);
  CHECK_FALSE(run.out_of_bounds_failed);
  CHECK(run.avg_busbw_gbs == doctest::Approx(210.023));
  CHECK_FALSE(run.avg_busbw_ok);
  CHECK(run.failure_lines.empty());
  CHECK_FALSE(run.cputime);
}

TEST_CASE("v1.0 fixture: bare nThread line and footer, `bytes N ... res` table in milliseconds") {
  FileRead fr = read_fixture("v1.0-all_reduce.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.line == 2);
  CHECK(run.op == "all_reduce");  // from the `$ ./build/all_reduce_perf` line
  CHECK(run.version.empty());
  CHECK(run.ngpus == 4u);
  REQUIRE(run.ranks.size() == 4);
  CHECK_FALSE(run.ranks[3].pid);
  CHECK_FALSE(run.ranks[3].group);
  CHECK(run.ranks[3].host == "dgx1-03");
  CHECK(run.ranks[3].bus == "0x09");
  CHECK(run.ranks[3].name == "Tesla P100-SXM2-16GB");
  REQUIRE(run.rows.size() == 9);
  const NcclTestsRow& last = run.rows.back();
  CHECK(last.size_bytes == 134217728u);
  CHECK(last.redop == "sum");
  CHECK_FALSE(last.root);
  CHECK(last.oop_time_us == doctest::Approx(14156.0));  // printed as 14.156 ms
  CHECK(last.oop_busbw_gbs == doctest::Approx(14.22));
  CHECK(last.oop_error == doctest::Approx(1e-7));
  CHECK(last.ip_error == 0.0);
  CHECK_FALSE(last.oop_wrong);
  CHECK(run.out_of_bounds == 0u);
  CHECK(run.avg_busbw_gbs == doctest::Approx(5.51757));
  // Everything but the command line and the blank lines is the run's.
  CHECK_FALSE(fr.claimed[0]);
  CHECK(count(fr.claimed) == fr.lines.size() - 3);
}

TEST_CASE("v2.11 fixture: Pid rank lines, error column, Open MPI warnings between the lines") {
  FileRead fr = read_fixture("v2.11-all_reduce-error-column.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "all_reduce");
  CHECK(run.ranks.size() == 16);
  CHECK(run.ranks[9].host == "dgx-a02");
  CHECK(run.ranks[9].pid == 18871u);
  CHECK(run.ranks[9].bus == "0x0f");
  REQUIRE(run.rows.size() == 6);
  const NcclTestsRow& last = run.rows.back();
  CHECK(last.size_bytes == 1073741824u);
  CHECK(last.redop == "sum");
  CHECK_FALSE(last.root);
  CHECK(last.oop_time_us == doctest::Approx(11990));
  CHECK(last.oop_busbw_gbs == doctest::Approx(167.91));
  CHECK(last.oop_error == doctest::Approx(2e-6));
  CHECK(last.ip_error == doctest::Approx(1e-6));
  CHECK_FALSE(last.ip_wrong);
  CHECK(run.avg_busbw_gbs == doctest::Approx(118.72));
  // The warning box and the help-message line are left to others.
  for (size_t i = 0; i < fr.lines.size(); ++i) {
    if (fr.lines[i].starts_with("--") || fr.lines[i].starts_with("WARNING") || fr.lines[i].starts_with("[dgx")) {
      CHECK_FALSE(fr.claimed[i]);
    }
  }
}

TEST_CASE("v2.11 broadcast fixture: root column and no redop, -c 0 leaves the error N/A") {
  FileRead fr = read_fixture("v2.11-broadcast-root.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "broadcast");  // from the srun line
  REQUIRE(run.rows.size() == 4);
  const NcclTestsRow& row = run.rows[0];
  CHECK(row.size_bytes == 65536u);
  CHECK(row.redop.empty());
  CHECK(row.root == 0);
  CHECK_FALSE(row.oop_error);
  CHECK_FALSE(row.ip_error);
  CHECK_FALSE(row.oop_wrong);
  CHECK(row.oop_algbw_gbs == row.oop_busbw_gbs);
}

TEST_CASE("#wrong counts: whole, in %g's exponent form, and beyond 64 bits") {
  GpuRecords out;
  NcclTestsReader r(out);
  feed(r, {
      "# Collective test starting: all_reduce_perf",
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ",
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         ",
      "        1024           256     float     sum      -1    20.11    0.05    0.09      17    19.80    0.05    0.09 1.2e+06",
      "        2048           512     float     sum      -1    20.50    0.10    0.19  2.5e+06   20.02    0.10    0.19 4.6e+19",
  });
  REQUIRE(out.nccl_tests.size() == 1);
  REQUIRE(out.nccl_tests[0].rows.size() == 2);
  const auto& rows = out.nccl_tests[0].rows;
  CHECK(rows[0].oop_wrong == 17u);
  CHECK(rows[0].ip_wrong == 1200000u);
  CHECK(rows[1].oop_wrong == 2500000u);
  CHECK(rows[1].ip_wrong == std::numeric_limits<uint64_t>::max());
}

TEST_CASE("v2.13.3 fixture: shared header with #wrong, rank lines without Group, markdown fence") {
  FileRead fr = read_fixture("v2.13.3-all_gather-no-group.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "all_gather");
  CHECK(run.ngpus == 8u);
  REQUIRE(run.ranks.size() == 8);
  CHECK(run.ranks[7].pid == 90211u);
  CHECK_FALSE(run.ranks[7].group);
  REQUIRE(run.rows.size() == 7);
  CHECK(run.rows[0].redop == "none");
  CHECK(run.rows[0].oop_wrong == 0u);
  CHECK(run.rows.back().oop_busbw_gbs == doctest::Approx(180.64));
  CHECK_FALSE(fr.claimed[1]);  // ```
  CHECK_FALSE(fr.claimed.back());
}

TEST_CASE("v2.14.0 fixture: two nodes, Group, [0x..] bus, a banner among the rank lines, no op anywhere") {
  FileRead fr = read_fixture("v2.14.0-all_reduce-group-two-nodes.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op.empty());
  REQUIRE(run.ranks.size() == 16);
  CHECK(run.ranks[15].host == "h800-12");
  CHECK(run.ranks[15].device == 7);
  CHECK(run.ranks[15].group == 0u);
  CHECK(run.ranks[15].bus == "0xdb");
  CHECK(run.rows.size() == 16);
  CHECK(run.rows.back().size_bytes == 8589934592u);
  CHECK(run.rows.back().oop_time_us == doctest::Approx(101093));
}

TEST_CASE("v2.15 failure fixture: NCCL failures and TESTCHECK traces from two hosts") {
  FileRead fr = read_fixture("v2.15-failure-network-error.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "all_reduce");
  CHECK(run.ranks.size() == 16);
  CHECK(run.reduced_max_bytes == 13743895347u);
  CHECK(run.rows.empty());
  CHECK_FALSE(run.out_of_bounds);
  CHECK(run.failure_lines == std::vector<uint64_t>{23, 24, 25, 26, 27});
  REQUIRE(run.failure_texts.size() == 5);
  CHECK(run.failure_texts[3] == "node-g03: Test NCCL failure common.cu:1179 'remote process exited or there was a "
                                "network error / '");
  CHECK(run.failure_texts[4] == ".. node-g03 pid 61034: Test failure common.cu:1106");
  CHECK_FALSE(fr.claimed.back());  // the mpirun box
}

TEST_CASE("v2.15 fixture: a script that runs two tests makes two runs, each named by its command line") {
  FileRead fr = read_fixture("v2.15-two-runs-script.txt");
  REQUIRE(fr.out.nccl_tests.size() == 2);
  CHECK(fr.out.nccl_tests[0].op == "all_reduce");
  CHECK(fr.out.nccl_tests[1].op == "all_gather");
  CHECK(fr.out.nccl_tests[0].line == 8);
  CHECK(fr.out.nccl_tests[1].line == 41);
  for (const NcclTestsRun& run : fr.out.nccl_tests) {
    CHECK(run.ranks.size() == 16);
    CHECK(run.rows.size() == 4);
    CHECK(run.out_of_bounds == 0u);
  }
  CHECK(fr.out.nccl_tests[1].rows[0].redop == "none");
  CHECK(fr.out.nccl_tests[1].avg_busbw_gbs == doctest::Approx(134.646));
}

TEST_CASE("v2.16.7 fixture: starting/concluded lines and [0000:19:00] bus ids") {
  FileRead fr = read_fixture("v2.16.7-reduce_scatter-starting.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "reduce_scatter");
  CHECK(run.version.empty());
  CHECK(run.ranks[0].bus == "0000:18:00");
  CHECK(run.ranks[0].pid == 551902u);
  CHECK(run.rows.size() == 7);
  CHECK(run.rows.back().oop_time_us == doctest::Approx(10500));
  CHECK(run.avg_busbw_gbs == doctest::Approx(247.888));
  CHECK(count(fr.claimed) == fr.lines.size() - 1);  // all but the final blank line
}

TEST_CASE("v2.17.4 fixture: numbers fitted to their column, exponents, wrong counts, FAILED") {
  FileRead fr = read_fixture("v2.17.4-alltoall-fitted-numbers.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "alltoall");
  CHECK(run.version == "2.17.4");
  REQUIRE(run.rows.size() == 5);
  CHECK(run.rows[0].oop_time_us == doctest::Approx(1023511));
  CHECK(run.rows[3].ip_wrong == 1250000u);  // `1.25e+06`
  CHECK(run.rows[4].oop_time_us == doctest::Approx(1.6e7));
  CHECK(run.rows[4].oop_wrong == 4096u);
  CHECK(run.out_of_bounds == 1254096u);
  CHECK(run.out_of_bounds_failed);
  CHECK(run.avg_busbw_gbs == doctest::Approx(0.787232));
  CHECK(count(fr.claimed) == fr.lines.size());
}

TEST_CASE("v2.18.5 fixture: -C 1 cputime, -S 1 timestamps, unalign, blocking, NCCL_TESTS_MIN_BW OK") {
  FileRead fr = read_fixture("v2.18.5-all_reduce-cputime-timestamps.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.cputime);
  CHECK(run.version == "2.18.5");
  REQUIRE(run.rows.size() == 5);
  const NcclTestsRow& row = run.rows[4];
  CHECK(row.type == "bfloat16");
  CHECK(row.oop_time_us == doctest::Approx(4513.92));
  CHECK(row.ip_busbw_gbs == doctest::Approx(818.80));
  CHECK(row.ip_wrong == 0u);
  CHECK(row.timestamp == "2026-02-03 09:14:16");
  CHECK(run.avg_busbw_ok == true);
  CHECK(count(fr.claimed) == fr.lines.size());
}

TEST_CASE("v2.19.6 fixture: -I 1 per-iteration columns are skipped by name; the memory line after the end") {
  FileRead fr = read_fixture("v2.19.6-sendrecv-per-iteration.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "sendrecv");
  REQUIRE(run.rows.size() == 4);
  const NcclTestsRow& row = run.rows[2];
  CHECK(row.size_bytes == 134217728u);
  CHECK(row.oop_time_us == doctest::Approx(906.78));
  CHECK(row.oop_wrong == 0u);
  CHECK(row.ip_time_us == doctest::Approx(906.78));  // not i_min's 879.58
  CHECK(row.ip_algbw_gbs == doctest::Approx(148.01));
  CHECK(run.avg_busbw_ok == false);
  CHECK(count(fr.claimed) == fr.lines.size() - 1);  // the trailing blank line
}

TEST_CASE("the op comes from a command line shown before the header, and only from a binary's name") {
  auto op_after = [](std::string_view command) {
    GpuRecords out;
    NcclTestsReader r(out);
    r.take(command, 1);
    r.take("# nThread 1 nGpus 8 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
           "validation: 1 graph: 0",
           2);
    r.finish();
    REQUIRE(out.nccl_tests.size() == 1);
    return out.nccl_tests[0].op;
  };
  CHECK(op_after("mpirun -np 8 ./build/all_reduce_perf -b 8 -e 8G -f 2") == "all_reduce");
  CHECK(op_after("srun --mpi=pmix all_gather_perf -b 8 -e 1G") == "all_gather");
  CHECK(op_after("$ /opt/hpcx/tests/alltoall_perf_mpi -b 1M") == "alltoall");
  CHECK(op_after("+ ./build/gather_perf -g 8") == "gather");
  CHECK(op_after("+ ./build/scatter_perf -g 8") == "scatter");
  CHECK(op_after("./hypercube_perf -g 8") == "hypercube");
  CHECK(op_after("cmd=\"./build/reduce_perf -g 8\"") == "reduce");
  CHECK(op_after("python benchmark_perf.py --all_reduce") == "");
  CHECK(op_after("loading my_all_reduce_perf_model") == "");
  CHECK(op_after("cd nccl-tests/build/all_reduce_perfs") == "");

  // A starting line wins over the command line.
  GpuRecords out;
  NcclTestsReader r(out);
  feed(r, {"mpirun ./build/all_gather_perf", "# Collective test starting: reduce_scatter_perf"});
  REQUIRE(out.nccl_tests.size() == 1);
  CHECK(out.nccl_tests[0].op == "reduce_scatter");
}

TEST_CASE("the ranks a command line starts: the launcher's processes times -t and -g") {
  auto launched = [](std::string_view command) {
    GpuRecords out;
    NcclTestsReader r(out);
    r.take(command, 1);
    r.take("# Using devices", 2);
    r.finish();
    REQUIRE(out.nccl_tests.size() == 1);
    return out.nccl_tests[0].launched_ranks;
  };
  CHECK(launched("mpirun -n 256 -npernode 16 -hostfile /job/hostfile --mca btl ^openib ./build/all_reduce_perf -b 8 "
                 "-e 512M -f 2 -g 1 -c 0") == 256u);
  CHECK(launched("mpirun --allow-run-as-root -np 8 all_reduce_perf -t 1 -g 1 -b 2M") == 8u);
  CHECK(launched("all_gather_perf -g 8 -b 4294967296 -e 4294967296 -n 100") == 8u);
  CHECK(launched(" ./build/sendrecv_perf -b 8 -e 196M -g 2 -d uint8") == 2u);
  CHECK(launched("srun --ntasks=16 --mpi=pmix ./all_reduce_perf_mpi --ngpus=1") == 16u);
  CHECK(launched("srun -n4 ./build/alltoall_perf -t 2 -g2") == 16u);
  CHECK(launched("$ ./build/all_reduce_perf -b 8 -e 128M") == 1u);
  // A launcher whose process count comes from elsewhere (a hostfile, Slurm's allocation).
  CHECK_FALSE(launched("srun --mpi=pmix all_gather_perf -b 8 -e 1G").has_value());
  CHECK_FALSE(launched("mpirun --hostfile hosts ./build/all_reduce_perf -g 1").has_value());
  // Quotes, shells and wrappers; one command of several.
  CHECK(launched("bash -c \"mpirun -np 8 ./build/all_reduce_perf -g 8\"") == 64u);
  CHECK(launched("mpirun -np 2 sh -c './build/all_reduce_perf -g 4'") == 8u);
  CHECK(launched("NCCL_DEBUG=INFO ./build/all_reduce_perf -g 4 -b 8") == 4u);
  CHECK(launched("./build/all_reduce_perf -g 8 -e 1G && ./build/all_gather_perf -g 1") == 8u);
  CHECK(launched("mpirun -np 4 ./build/all_reduce_perf -g 1 | tee out.txt") == 4u);
  CHECK_FALSE(launched("numactl --cpunodebind=0 ./build/all_reduce_perf -g 8").has_value());
  CHECK_FALSE(launched("./build/all_reduce_perf -g $NGPUS").has_value());

  // The header's nThread and nGpus say what -t and -g came to.
  GpuRecords out;
  NcclTestsReader r(out);
  feed(r, {"mpirun -np 2 ./build/all_reduce_perf $ARGS",
           "# nThread 1 nGpus 8 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 5 iters: 20 validation: 1"});
  REQUIRE(out.nccl_tests.size() == 1);
  CHECK(out.nccl_tests[0].launched_ranks == 16u);

  // The last line of a command split with `\` does not show its launcher.
  GpuRecords split;
  NcclTestsReader r2(split);
  feed(r2, {"mpirun --allow-run-as-root \\", "  -np 16 \\", "  ./build/all_reduce_perf -b 8 -e 1G -g 1",
            "# Using devices"});
  REQUIRE(split.nccl_tests.size() == 1);
  CHECK(split.nccl_tests[0].op == "all_reduce");
  CHECK_FALSE(split.nccl_tests[0].launched_ranks.has_value());
}

TEST_CASE("processes without MPI support print one header each before any row: the second keeps the command's op") {
  GpuRecords out;
  NcclTestsReader r(out);
  feed(r, {
              "$ mpirun -host localhost,10.0.0.2 -np 2 /opt/nccl-tests/build/all_reduce_perf -b 1250M -e 1250M -g 1",
              "# nThread 1 nGpus 1 minBytes 1310720000 maxBytes 1310720000 step: 1048576(bytes) warmup iters: 5 iters: 20 validation: 1",
              "#",
              "# Using devices",
              "# nThread 1 nGpus 1 minBytes 1310720000 maxBytes 1310720000 step: 1048576(bytes) warmup iters: 5 iters: 20 validation: 1",
              "#",
              "# Using devices",
              "#   Rank  0 Pid   1320 on node-b device  0 [0x00] Tesla V100-SXM2-16GB",
              "#   Rank  0 Pid   2066 on node-a device  0 [0x00] Tesla V100-SXM2-16GB",
          });
  REQUIRE(out.nccl_tests.size() == 2);
  CHECK(out.nccl_tests[0].op == "all_reduce");
  CHECK(out.nccl_tests[1].op == "all_reduce");
  CHECK(out.nccl_tests[1].launched_ranks == 1u);  // each such process is one rank of one GPU
  CHECK(out.nccl_tests[1].ranks.size() == 2);

  // Another run's header (other sizes) does not take the op.
  GpuRecords other;
  NcclTestsReader r3(other);
  feed(r3, {
               "mpirun -np 2 ./build/all_reduce_perf -g 4",
               "# nThread 1 nGpus 4 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 5 iters: 20 validation: 1",
               "# Using devices",
               "# nThread 1 nGpus 8 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 validation: 1",
           });
  REQUIRE(other.nccl_tests.size() == 2);
  CHECK(other.nccl_tests[0].op == "all_reduce");
  CHECK(other.nccl_tests[0].launched_ranks == 8u);
  CHECK(other.nccl_tests[1].op.empty());
  CHECK_FALSE(other.nccl_tests[1].launched_ranks.has_value());

  // A header after rows belongs to a run of its own, which the command does not name.
  GpuRecords later;
  NcclTestsReader r2(later);
  feed(r2, {
               "mpirun -np 2 ./build/all_gather_perf -g 1",
               "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 validation: 1",
               "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
               "           8             2     float     sum    10.10    0.00    0.00  0e+00    10.00    0.00    0.00  0e+00",
               "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 validation: 1",
           });
  REQUIRE(later.nccl_tests.size() == 2);
  CHECK(later.nccl_tests[1].op.empty());
}

TEST_CASE("nothing out of a block looks like nccl-tests to it") {
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {
      "           8             2     bytes     sum      -1    17.08    0.00    0.00      0    16.76    0.00    0.00      0",
      "           8             2     float     sum      -1    17.08    0.00    0.00      0    16.76    0.00",
      "  1024  256  12.5  0.08  0.16",
      "| size | count | type | time | algbw | busbw |",
      "|------|-------|------|------|-------|-------|",
      "| 0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |",
      "Epoch 3:  45%|####      | 450/1000 [01:02<01:16,  7.18it/s, loss=0.312]",
      "# size of the per-rank batch, in elements",
      "# Using devices 0,1,2,3 for training",
      "# out-of-place and in-place timings differ on this box",
      "# nThread count is 4 by default",
      "#  Rank  0 Group  0 Pid 1 on node1",
      "#       size   time   algbw",
      "# Out of bounds values : 0 OK",
      "# Avg bus bandwidth    : 95.3",
      "#",
      "Rank 0 on host device 0",
      "NCCL failure in all_reduce, rank 3",
      "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1207, unhandled system error",
      "# Collective test concluded: all_reduce_perf",
      "(B)    (elements)                               (us)  (GB/s)  (GB/s)",
  });
  CHECK(count(c) == 0);
  CHECK(out.nccl_tests.empty());
  CHECK(out.kinds.empty());
  CHECK_FALSE(r.in_block());
}

TEST_CASE("inside a run, noise lines are left alone and the run goes on") {
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {
      "# nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
      "#",
      "# Using devices",
      "[node1:01234] mca_base_component_repository_open: unable to open mca_btl_openib",
      "#  Rank  0 Group  0 Pid   1234 on      node1 device  0 [0x1b] NVIDIA A100-SXM4-80GB",
      "",
      "#  Rank  1 Group  0 Pid   1234 on      node1 device  1 [0x1c] NVIDIA A100-SXM4-80GB",
      "#",
      "#                                                              out-of-place                       in-place          ",
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ",
      "           8             2     float     sum      -1    11.52    0.00    0.00      0    11.20    0.00    0.00      0",
      "Authorization required, but no authorization protocol specified",
      "          16             4     float     sum      -1    11.44    0.00    0.00      0    11.19    0.00",
      "          16             4     float     sum      -1    11.44    0.00    0.00      0    11.19    0.00    0.00      0",
      "    12  14   16",
      "# Out of bounds values : 0 OK",
      "# Avg bus bandwidth    : 0.0012 ",
  });
  CHECK(c == std::vector<bool>{true, true, true, false, true, false, true, true, true, true, true, true, false,
                               false, true, false, true, true});
  REQUIRE(out.nccl_tests.size() == 1);
  CHECK(out.nccl_tests[0].ranks.size() == 2);
  REQUIRE(out.nccl_tests[0].rows.size() == 2);
  CHECK(out.nccl_tests[0].rows[1].line == 15);
}

TEST_CASE("a header line that comes again starts the next run; a lost run keeps what it had") {
  GpuRecords out;
  NcclTestsReader r(out);
  feed(r, {
      "# Collective test starting: all_reduce_perf",
      "# nThread 1 nGpus 8 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
      "# Using devices",
      "#  Rank  0 Group  0 Pid   1234 on      node1 device  0 [0x1b] NVIDIA A100-SXM4-80GB",
      "# nThread 1 nGpus 8 minBytes 8 maxBytes 256 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
      "# Using devices",
      "#  Rank  0 Group  0 Pid   1240 on      node1 device  0 [0x1b] NVIDIA A100-SXM4-80GB",
  });
  REQUIRE(out.nccl_tests.size() == 2);
  CHECK(out.nccl_tests[0].op == "all_reduce");
  CHECK(out.nccl_tests[0].max_bytes == 128u);
  CHECK(out.nccl_tests[0].ranks.size() == 1);
  CHECK(out.nccl_tests[1].op.empty());
  CHECK(out.nccl_tests[1].line == 5);
  CHECK(out.nccl_tests[1].ranks[0].pid == 1240u);
}

TEST_CASE("failures: a rank's own stream without the header, v1's plain form only inside a run") {
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {
      "gpu7: Test CUDA failure common.cu:1030 'system not yet initialized'",
      " .. gpu7 pid 3018: Test failure common.cu:937",
      "NCCL failure common.cu:874 'unhandled system error'",
      "Test NCCL failure common.cu:958 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '",
      "gpu7: Test timeout (300s) common.cu:512",
      " .. gpu7: Test failure common.cu:601",
  });
  CHECK(c == std::vector<bool>{true, true, false, true, true, true});
  REQUIRE(out.nccl_tests.size() == 1);
  CHECK(out.nccl_tests[0].line == 1);
  CHECK(out.nccl_tests[0].failure_lines == std::vector<uint64_t>{1, 2, 4, 5, 6});
  CHECK_FALSE(r.in_block());

  GpuRecords v1;
  NcclTestsReader r1(v1);
  auto c1 = feed(r1, {
      "nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1",
      "NCCL failure common.cu:874 'unhandled system error'",
  });
  CHECK(c1 == std::vector<bool>{true, true});
  REQUIRE(v1.nccl_tests.size() == 1);
  CHECK(v1.nccl_tests[0].failure_lines == std::vector<uint64_t>{2});
}

TEST_CASE("after the footer the run ends once other output goes on") {
  GpuRecords out;
  NcclTestsReader r(out);
  r.take("# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
         "validation: 1 graph: 0",
         1);
  r.take("# Out of bounds values : 0 OK", 2);
  r.take("# Avg bus bandwidth    : 0.5 ", 3);
  CHECK(r.in_block());
  CHECK(r.take("#", 4));
  CHECK(r.take("# error: NET/IB : Got completion from peer with error 12", 5));
  for (uint64_t i = 6; i < 20; ++i) CHECK_FALSE(r.take("step 100 loss 0.5", i));
  CHECK_FALSE(r.in_block());
  CHECK_FALSE(r.take("#", 21));
}

TEST_CASE("v2.14 fixture: an empty hostname leaves only blanks between `on` and `device`") {
  FileRead fr = read_fixture("v2.14-all_reduce-empty-hostname.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "all_reduce");
  REQUIRE(run.ranks.size() == 4);
  CHECK(run.ranks[0].host.empty());
  CHECK(run.ranks[0].pid == 51207u);
  CHECK(run.ranks[3].rank == 3u);
  CHECK(run.ranks[3].device == 3u);
  CHECK(run.ranks[3].bus == "0xbe");
  CHECK(run.ranks[3].name == "NVIDIA A100 80GB PCIe");
  REQUIRE(run.rows.size() == 4);
  CHECK(run.rows[3].size_bytes == 67108864u);
  CHECK(run.rows[3].ip_busbw_gbs == doctest::Approx(48.05));
  CHECK(run.avg_busbw_gbs == doctest::Approx(45.16));
  CHECK(count(fr.claimed) == 18);  // all but the command line
}

TEST_CASE("a host named `device` is still a host") {
  GpuRecords out;
  NcclTestsReader r(out);
  feed(r, {"# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 validation: 1",
           "# Using devices",
           "#   Rank  0 Pid  301 on device device  0 [0x00] Tesla V100-SXM2-16GB"});
  REQUIRE(out.nccl_tests.size() == 1);
  REQUIRE(out.nccl_tests[0].ranks.size() == 1);
  CHECK(out.nccl_tests[0].ranks[0].host == "device");
}

TEST_CASE("v2.17 fixture: pasted into markdown without a fence, every `#` is gone") {
  FileRead fr = read_fixture("v2.17-all_gather-pasted-without-fence.txt");
  REQUIRE(fr.out.nccl_tests.size() == 1);
  const NcclTestsRun& run = fr.out.nccl_tests[0];
  CHECK(run.op == "all_gather");
  CHECK(run.ngpus == 1u);
  CHECK(run.max_bytes == 67108864u);
  REQUIRE(run.ranks.size() == 2);
  CHECK(run.ranks[0].host == "node-a");
  CHECK(run.ranks[1].host == "node-b");
  CHECK(run.ranks[1].pid == 17442u);
  CHECK(run.ranks[1].bus == "0000:18:00");
  REQUIRE(run.rows.size() == 4);
  CHECK(run.rows[0].size_bytes == 1048576u);
  CHECK(run.rows[0].count == 131072u);
  CHECK(run.rows[0].redop == "none");
  CHECK(run.rows[3].oop_busbw_gbs == doctest::Approx(17.75));
  CHECK(run.rows[3].ip_busbw_gbs == doctest::Approx(17.77));
  CHECK(run.rows[3].ip_wrong == 0u);
  CHECK(run.out_of_bounds == 0u);
  CHECK(run.avg_busbw_gbs == doctest::Approx(14.4588));
  CHECK_FALSE(fr.claimed[0]);              // the prose before it
  CHECK_FALSE(fr.claimed.back());          // and after it
}

TEST_CASE("bare header lines are only taken inside a run") {
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {"Using devices", "Rank 3 finished its epoch",
                    "       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                    "     1048576        262144     float     sum      -1    28.15   37.25   65.19      0    27.52   38.10   66.67      0"});
  // The row without its column names is still one, in its own run.
  CHECK(c == std::vector<bool>{false, false, false, true});
  REQUIRE(out.nccl_tests.size() == 1);
  CHECK(out.nccl_tests[0].rows.size() == 1);
  CHECK(out.nccl_tests[0].ranks.empty());
}

TEST_CASE("a paste that starts inside the table: rows read by their layout, each nccl-tests version's") {
  // v2.13+ (redop root, #wrong), v2.x broadcast-era 12 fields (redop, no
  // root; `error` as a float) and v1-era 11 fields (no redop, no root), each
  // followed by its footer; then rows under mpirun -prepend-rank tags.
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {
      "   134217728      33554432     float     sum      -1   5190.8   25.86   25.86      0   5186.6   25.88   25.88      0",
      "# Out of bounds values : 0 OK",
      "# Avg bus bandwidth    : 8.62002",
      "",
      "    67108864       8388608     float     sum    1568.3   21.40   21.40  0e+00   1560.9   21.50   21.50  0e+00",
      "   134217728      16777216     float    3298.6   20.34   20.34  0e+00   3070.3   21.86   21.86  0e+00",
      "   134217728      16777216    double    1000.0   20.34   20.34  0e+00   3070.3   21.86   21.86  1e+00",
      "# Out of bounds values : 0 OK",
      "[0]     33554432       8388608     float     sum      -1[0]    2180.1   15.39   29.50      0[0]    2285.2   14.68   28.14      0",
      "[0]    536870912     134217728     float     sum      -1[0]    193909    2.77    5.31      N/A[0]    192903    2.78    5.33      N/A",
  });
  CHECK(c == std::vector<bool>{true, true, true, false, true, true, true, true, true, true});
  REQUIRE(out.nccl_tests.size() == 4);
  const NcclTestsRun& a = out.nccl_tests[0];
  REQUIRE(a.rows.size() == 1);
  CHECK(a.rows[0].size_bytes == 134217728);
  CHECK(a.rows[0].redop == "sum");
  CHECK(a.rows[0].root == -1);
  CHECK(a.rows[0].ip_busbw_gbs == doctest::Approx(25.88));
  CHECK(a.rows[0].oop_wrong == 0);
  CHECK(a.avg_busbw_gbs == doctest::Approx(8.62002));
  // 12 fields, the fourth a reduction; a row of another layout (11 fields)
  // starts a run of its own.
  REQUIRE(out.nccl_tests[1].rows.size() == 1);
  CHECK(out.nccl_tests[1].rows[0].oop_time_us == doctest::Approx(1568.3));
  CHECK(out.nccl_tests[1].rows[0].oop_error == doctest::Approx(0));
  const NcclTestsRun& v1 = out.nccl_tests[2];
  REQUIRE(v1.rows.size() == 2);
  CHECK(v1.rows[0].type == "float");
  CHECK(v1.rows[0].redop.empty());
  CHECK(v1.rows[0].ip_busbw_gbs == doctest::Approx(21.86));
  CHECK(v1.rows[1].ip_error == doctest::Approx(1));
  CHECK(v1.out_of_bounds == 0u);
  const NcclTestsRun& tagged = out.nccl_tests[3];
  REQUIRE(tagged.rows.size() == 2);
  CHECK(tagged.rows[0].size_bytes == 33554432);
  CHECK(tagged.rows[0].oop_busbw_gbs == doctest::Approx(29.50));
  CHECK(tagged.rows[1].oop_time_us == doctest::Approx(193909));
  CHECK_FALSE(tagged.rows[1].oop_wrong);
}

TEST_CASE("a headerless row counts #wrong in %g form; a header that lost a column name keeps its run") {
  GpuRecords out;
  NcclTestsReader r(out);
  auto c = feed(r, {
      "  1073741824  268435456  float  sum  -1  9000.0  119.30  208.78  2.68435e+08  9001.0  119.29  208.76  2.68435e+08",
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20",
      "#  Rank  0 Group  0 Pid 1 on gpu01 device  0 [0x18] NVIDIA H100 80GB HBM3",
      "#       size         count      type   redop    root     time   algbw   busbw     time   algbw   busbw #wrong",
      "     1048576        262144     float     sum      -1    28.15   37.25   65.19      0    27.52   38.10   66.67      0",
  });
  CHECK(c == std::vector<bool>{true, true, true, true, true});
  REQUIRE(out.nccl_tests.size() == 2);
  REQUIRE(out.nccl_tests[0].rows.size() == 1);
  CHECK(out.nccl_tests[0].rows[0].oop_wrong == 268435000u);
  CHECK(out.nccl_tests[1].ranks.size() == 1);
  REQUIRE(out.nccl_tests[1].rows.size() == 1);
  CHECK(out.nccl_tests[1].rows[0].ip_busbw_gbs == doctest::Approx(66.67));
}
