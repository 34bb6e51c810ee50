#include "src/pipeline/pipeline.h"

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

TEST_CASE("a framework's watchdog timeout alone is judged: FAIL, exit 1, not nothing to judge") {
  CheckConfig config;
  auto r = analyze(model_from({"[rank0]:[E602 11:17:52.185053341 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught "
                               "collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, "
                               "NumelOut=1, Timeout(ms)=600000) ran for 600020 milliseconds before timing out."}),
                   config);
  CHECK(r.verdict == Verdict::Fail);
  CHECK(exit_code(r, FailOn::Error) == 1);
}

TEST_CASE("summary: the inter-node network named by family from all the evidence") {
  // HPC-X RDMA plugin on RoCE NICs (NCCL 2.27): the name on the links, the family from the device.
  auto roce = report_for({"gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.3.0.21<0>",
                          "gpuA:100:154 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/NCCL RDMA Plugin v8/0/GDRDMA",
                          "gpuB:200:254 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/NCCL RDMA Plugin v8/0/GDRDMA"});
  CHECK(roce.summary.inter == std::vector<std::string>{"NCCL RDMA Plugin v8"});
  CHECK(roce.summary.inter_families == std::vector<std::string>{"RoCE"});
  CHECK(roce.summary.inter_from == "connections");
  CHECK(roce.findings.empty());
  // No connection lines (2.22+ connects lazily): NCCL's choice, never a plugin that failed.
  auto chosen = report_for({"gpuA:100:100 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)",
                            "gpuA:100:100 [0] NCCL INFO Failed to initialize NET plugin Libfabric",
                            "gpuA:100:100 [0] NCCL INFO Using network IB",
                            "gpuB:200:200 [0] NCCL INFO Using network IB"});
  CHECK(chosen.summary.inter.empty());
  CHECK(chosen.summary.inter_families == std::vector<std::string>{"IB"});
  CHECK(chosen.summary.inter_from == "network");
  // Only IB WARNs say which network carried the traffic.
  auto warned = report_for({"",
                            "gpuA:100:160 [0] transport/net_ib.cc:2353 NCCL WARN NET/IB: Got completion from peer "
                            "10.1.0.8<49513> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_0"});
  CHECK(warned.summary.inter_families == std::vector<std::string>{"IB"});
  CHECK(warned.summary.inter_from == "warnings");
  CHECK(report_for({}).summary.inter_from == "none");
}
