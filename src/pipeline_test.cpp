#include "src/pipeline.h"

#include <doctest/doctest.h>

#include "src/model/model_fixture.h"

using namespace nd;

namespace {

constexpr std::string_view kInit[] = {
    "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
    "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
};

CheckReport report_for(std::initializer_list<std::string_view> lines, FailOn fail_on = FailOn::Error) {
  std::vector<std::string_view> all(lines);
  all.insert(all.end(), std::begin(kInit), std::end(kInit));
  CheckConfig config;
  config.fail_on = fail_on;
  return analyze(model_from_lines(all), config);
}

}  // namespace

TEST_CASE("an inter-node socket link fails the run; summary reports the transports") {
  auto r = report_for({"gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
                       "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0"});
  CHECK(r.verdict == Verdict::Fail);
  CHECK(exit_code(r, FailOn::Error) == 1);
  CHECK(r.summary.hosts == 2);
  CHECK(r.summary.ranks == 2);
  CHECK(r.summary.inter == std::vector<std::string>{"Socket"});
  CHECK(r.summary.gdr == "no");
}

TEST_CASE("warnings make a WARN verdict, exit 0 by default, and fail with --fail-on warning") {
  std::initializer_list<std::string_view> lines = {"gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0",
                "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0"};
  auto r = report_for(lines);
  CHECK(r.verdict == Verdict::Warn);
  CHECK(std::string(verdict_name(r.verdict)) == "warn");
  CHECK(exit_code(r, FailOn::Error) == 0);
  auto strict = report_for(lines, FailOn::Warning);
  CHECK(strict.verdict == Verdict::Fail);
  CHECK(exit_code(strict, FailOn::Warning) == 1);
}

TEST_CASE("GDR on every inter-node edge is a clean pass") {
  auto r = report_for({"gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                       "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA"});
  CHECK(r.verdict == Verdict::Pass);
  CHECK(r.findings.empty());
  // Only a check the log cannot feed, which does not decide the verdict.
  REQUIRE(r.gaps.size() == 1);
  CHECK(r.gaps[0].reason == "CPU binding: the input has no launcher binding report");
  CHECK_FALSE(r.gaps[0].blocks_verdict);
  CHECK(r.summary.gdr == "yes");
  CHECK(r.summary.coverage.ranks_seen == 2);
  CHECK(r.summary.coverage.hosts_seen == 2);
  CHECK(r.summary.coverage.channels == std::vector<uint32_t>{0});
}

TEST_CASE("no connection lines: inconclusive, exit 0 unless --fail-on inconclusive") {
  auto r = report_for({});
  CHECK(r.verdict == Verdict::Inconclusive);
  REQUIRE(r.gaps.size() == 1);
  CHECK(r.gaps[0].reason == "the log has no connection lines (`Channel NN : a -> b via ...`)");
  CHECK(exit_code(r, FailOn::Error) == 0);
  CHECK(exit_code(r, FailOn::Inconclusive) == 1);
}

TEST_CASE("an unreadable input makes the exit status 2") {
  CheckReport r;
  r.verdict = Verdict::Pass;
  r.input_errors.push_back("cannot open 'x': No such file or directory");
  CHECK(exit_code(r, FailOn::Error) == 2);
}

TEST_CASE("input with no NCCL line is nothing to judge: exit 4, never 0") {
  CheckConfig config;
  auto r = analyze(model_from({"Traceback (most recent call last):", "KeyError: 'x'"}), config);
  CHECK(r.verdict == Verdict::Inconclusive);
  CHECK(exit_code(r, FailOn::Error) == kExitNoNcclLines);
  CHECK(kExitNoNcclLines == 4);
}
