#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

const char* kHeader[] = {
    "# Collective test starting: all_reduce_perf",
    "# nThread 1 nGpus 1 minBytes 1073741824 maxBytes 2147483648 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
    "validation: 1 graph: 0",
    "#",
    "# Using devices",
    "#  Rank  0 Group  0 Pid  51210 on    gpu-a07 device  0 [0x07] NVIDIA A100-SXM4-80GB",
    "#  Rank  1 Group  0 Pid  60330 on    gpu-a08 device  0 [0x07] NVIDIA A100-SXM4-80GB",
    "#",
    "#                                                              out-of-place                       in-place",
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
};

JobModel run_with(std::initializer_list<std::string_view> tail) {
  std::vector<std::string_view> lines(std::begin(kHeader), std::end(kHeader));
  lines.insert(lines.end(), tail);
  return model_from_lines(lines, "tests.log");
}

}  // namespace

TEST_CASE("nccl-tests-wrong: #wrong cells and a FAILED out-of-bounds count") {
  auto m = run_with({
      "  1073741824     268435456     float     sum      -1    11502   93.35  175.04      0    11497   93.39  175.11      0",
      "  2147483648     536870912     float     sum      -1    22911   93.73  175.74     12    22907   93.75  175.77      3",
      "# Out of bounds values : 15 FAILED",
      "# Avg bus bandwidth    : 175.71",
  });
  auto found = run_rule("nccl-tests-wrong", m);
  CHECK(messages(found) ==
        std::vector<std::string>{"error: all_reduce_perf returned 15 wrong values in 1 of 2 sizes and 15 out-of-bounds "
                                 "values: the collective corrupted data; run it again on the same hosts and check GPU "
                                 "memory (ECC, dcgmi diag) and the fabric before trusting any result"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu-a07", "gpu-a08"});
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].line == 12);
  CHECK(found[0].evidence[0].text.find("2147483648") != std::string::npos);
}

TEST_CASE("nccl-tests-wrong: a clean run and a run without validation say nothing") {
  auto clean = run_with({
      "  1073741824     268435456     float     sum      -1    11502   93.35  175.04      0    11497   93.39  175.11      0",
      "# Out of bounds values : 0 OK",
  });
  CHECK(run_rule("nccl-tests-wrong", clean).empty());
  auto unchecked = run_with({
      "  1073741824     268435456     float     sum      -1    11502   93.35  175.04    N/A    11497   93.39  175.11    N/A",
      "# Out of bounds values : 0 OK",
  });
  CHECK(run_rule("nccl-tests-wrong", unchecked).empty());
}

TEST_CASE("nccl-tests-wrong: the error column of the older layouts, over what the type allows, without a footer") {
  // v2.0-era sendrecv_perf -d uint8, pasted without its footer: its in-place
  // check is no valid use of sendrecv (nccl-tests#253), its out-of-place one is.
  std::vector<std::string> lines{
      "./build/sendrecv_perf -b 8 -e 196M -g 2 -d uint8 -i 1M",
      "#                                               out-of-place                       in-place",
      "#       size         count      type     time   algbw   busbw  error     time   algbw   busbw  error",
      "#        (B)    (elements)               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
      "    37748744      37748744     uint8    11732    3.22    3.22  0e+00    11698    3.23    3.23  3e+02",
  };
  CHECK(run_rule("nccl-tests-wrong", model_from_lines(lines, "sendrecv.txt")).empty());
  // The same without its command line: an op unknown, a table without redop.
  CHECK(run_rule("nccl-tests-wrong", model_from_lines(std::vector<std::string>(lines.begin() + 1, lines.end()), "sendrecv.txt")).empty());
  lines.back() = "    37748744      37748744     uint8    11732    3.22    3.22  3e+02    11698    3.23    3.23  0e+00";
  CHECK(messages(run_rule("nccl-tests-wrong", model_from_lines(lines, "sendrecv.txt"))) ==
        std::vector<std::string>{"error: sendrecv_perf returned an error of up to 300 in 1 of 1 sizes, over "
                                 "what uint8 allows: the collective corrupted data; run it again on the same hosts and "
                                 "check GPU memory (ECC, dcgmi diag) and the fabric before trusting any result"});
  // nccl-tests allows a float error of 1e-5 per rank beyond the first: at 64
  // ranks 2e-05 passes; without a rank count a float error is not judged.
  auto many = model_from({
      "mpirun -np 64 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 1 -d float",
      "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
      "   134217728      33554432     float     sum   8417.2   15.95   31.40  2e-05   8419.9   15.94   31.38  2e-05",
  });
  CHECK(run_rule("nccl-tests-wrong", many).empty());
  auto unknown = model_from({
      "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
      "   134217728      33554432     float     sum   8417.2   15.95   31.40  5e-01   8419.9   15.94   31.38  5e-01",
  });
  CHECK(run_rule("nccl-tests-wrong", unknown).empty());
  auto two = model_from({
      "./build/all_reduce_perf -g 2 -d half",
      "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
      "   134217728      67108864      half     sum   8417.2   15.95   31.40  3e-02   8419.9   15.94   31.38  0e+00",
  });
  REQUIRE(run_rule("nccl-tests-wrong", two).size() == 1);

  // Float rounding within the tolerance, and a footer that says OK, are clean.
  auto fine = model_from(
      {
          "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
          "    33554432       8388608     float     sum   1464.2   22.92   45.65  4e-07   1458.1   23.01   45.84  4e-07",
      },
      "fine.txt");
  CHECK(run_rule("nccl-tests-wrong", fine).empty());
}
