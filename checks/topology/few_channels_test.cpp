#include <algorithm>
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.12 two-node job with 8 IB NICs per host and `channels` ring channels.
JobModel eight_nics(int channels) {
  std::vector<std::string> lines;
  for (const char* h : {"gpu01:100:100", "gpu02:200:200"}) {
    lines.push_back(fmt::format("{} [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB "
                                "[3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; "
                                "OOB ib0:10.1.0.1<0>",
                                h));
    lines.push_back(fmt::format("{} [0] NCCL INFO Using network IB", h));
  }
  for (int c = 0; c < channels; ++c) lines.push_back(fmt::format("gpu01:100:100 [0] NCCL INFO Channel {:02d}/{:02d} :    0   1", c, channels));
  lines.push_back("gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE");
  lines.push_back("gpu02:200:200 [0] NCCL INFO comm 0x20 rank 1 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE");
  return model_from_lines(lines);
}
}  // namespace

TEST_CASE("few-channels: 2 ring channels for 8 NICs per host") {
  auto f = run_rule("few-channels", eight_nics(2));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "2 ring channels for 8 IB NICs per host: NCCL sends each channel through one NIC, so at least "
                        "6 NICs per host carry no ring traffic");
  CHECK(f[0].channels == std::vector<uint32_t>{0, 1});
}

TEST_CASE("few-channels: half as many channels as NICs or more is not flagged") {
  CHECK(run_rule("few-channels", eight_nics(4)).empty());
  CHECK(run_rule("few-channels", eight_nics(16)).empty());
}
