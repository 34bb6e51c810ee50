#include <doctest/doctest.h>

#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

struct Row {
  int sm;  // utilisation, %
  int pclk;
  int pviol = 0;
  int tviol = 0;
};

// `nvidia-smi dmon -s ucv` (R450 widths) on GPU 0, each line under `prefix`.
std::vector<std::string> dmon_log(std::string_view prefix, const std::vector<Row>& rows) {
  std::vector<std::string> lines{
      fmt::format("{}$ nvidia-smi dmon -s ucv -d 5", prefix),
      fmt::format("{}# gpu    sm   mem   enc   dec  mclk  pclk pviol tviol", prefix),
      fmt::format("{}# Idx     %     %     %     %   MHz   MHz     %  bool", prefix),
  };
  for (const auto& r : rows) {
    lines.push_back(fmt::format("{}    0{:>6}    41     0     0  1593{:>6}{:>6}{:>6}", prefix, r.sm, r.pclk, r.pviol,
                                r.tviol));
  }
  return lines;
}

// `n` loaded samples at full clock, the first `violated` of them with a
// power violation, between an idle warm-up and tail at 210 MHz.
std::vector<Row> run(int n, int violated, std::vector<Row> tail = {{0, 210}, {0, 210}}) {
  std::vector<Row> out{{0, 1410}, {2, 210}};
  for (int i = 0; i < n; ++i) out.push_back(i < violated ? Row{98, 1350, 12, 0} : Row{98, 1410, 0, 0});
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

const std::string kFix =
    "the GPU lowers its clocks to stay within its limits; check power capping (nvidia-smi -q -d PERFORMANCE,POWER), "
    "cooling, application clocks (nvidia-smi -rac) and that nvidia-smi -pl was not lowered";

}  // namespace

TEST_CASE("gpu-throttled: power violations in a tenth of the loaded samples") {
  auto m = model_from_lines(dmon_log("gpu21: ", run(20, 2)));
  auto found = run_rule("gpu-throttled", m);
  CHECK(messages(found) ==
        std::vector<std::string>{"warning: gpu21 GPU 0: power or thermal violation in 2 of 20 loaded samples (10 %): " +
                                 kFix});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu21"});
  // The first violation, then the first sample.
  REQUIRE(found[0].evidence.size() == 2);
  CHECK(found[0].evidence[0].line == 6);
  CHECK(found[0].evidence[0].text == "    0    98    41     0     0  1593  1350    12     0");
  CHECK(found[0].evidence[1].line == 4);
}

TEST_CASE("gpu-throttled: a thermal violation (tviol 1) counts like a power one") {
  std::vector<Row> rows(12, Row{97, 1410});
  for (int i = 0; i < 4; ++i) rows[static_cast<size_t>(8 + i)] = Row{97, 1395, 0, 1};
  auto found = run_rule("gpu-throttled", model_from_lines(dmon_log("", rows)));
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: host unknown GPU 0: power or thermal violation in 4 of 12 loaded samples (33 %): " + kFix});
}

TEST_CASE("gpu-throttled: SM clocks held low under load, from --query-gpu clocks") {
  std::vector<std::string> lines{
      "$ nvidia-smi --query-gpu=index,utilization.gpu,clocks.sm,clocks.max.sm --format=csv,noheader,nounits -l 5"};
  for (int i = 0; i < 15; ++i) lines.push_back(fmt::format("0, 97, {}, 1410", i < 5 ? 840 : 1410));
  lines.push_back("0, 0, 210, 1410");  // idle after the job: not under load
  auto found = run_rule("gpu-throttled", model_from_lines(lines));
  CHECK(messages(found) ==
        std::vector<std::string>{"warning: host unknown GPU 0: SM clock below 70 % of its 1410 MHz maximum in 5 of 15 "
                                 "loaded samples (33 %): " + kFix});
}

TEST_CASE("gpu-throttled: both signs in one finding") {
  std::vector<Row> rows;
  for (int i = 0; i < 10; ++i) rows.push_back(i < 3 ? Row{99, 900, 45, 0} : Row{99, 1410});
  auto found = run_rule("gpu-throttled", model_from_lines(dmon_log("gpu21: ", rows)));
  CHECK(messages(found) ==
        std::vector<std::string>{"warning: gpu21 GPU 0: power or thermal violation in 3 of 10 loaded samples (30 %); "
                                 "SM clock below 70 % of its 1410 MHz maximum in 3 of 10 loaded samples (30 %): " +
                                 kFix});
}

TEST_CASE("gpu-throttled: rare violations, a short run and idle samples say nothing") {
  // One violation in 20 loaded samples.
  CHECK(run_rule("gpu-throttled", model_from_lines(dmon_log("", run(20, 1)))).empty());
  // Nine loaded samples, all violated: an excerpt.
  CHECK(run_rule("gpu-throttled", model_from_lines(dmon_log("", run(9, 9)))).empty());
  // Idle samples with low clocks and violations (a warm-up and a tail) are not under load.
  std::vector<Row> idle(10, Row{3, 210, 30, 1});
  CHECK(run_rule("gpu-throttled", model_from_lines(dmon_log("", run(20, 0, idle)))).empty());
  // Clocks below 70 % in 3 of 20 loaded samples (15 %).
  std::vector<Row> rows(20, Row{98, 1410});
  for (size_t i = 0; i < 3; ++i) rows[i].pclk = 900;
  CHECK(run_rule("gpu-throttled", model_from_lines(dmon_log("", rows))).empty());
}
