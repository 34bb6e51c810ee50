#include <doctest/doctest.h>

#include "checks/registry.h"
#include "src/model/model_fixture.h"
#include "src/report/check_report.h"

using namespace nd;

namespace {

class RingRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2001", "ring-not-closed", Severity::Error, Needs::Log, "rings"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

// NCCL 2.27.7: a runtime-connected ring link, no GRAPH lines, no listing.
JobModel runtime_connected() {
  return model_from({
      "gpu01:2771:2771 [0] NCCL INFO NCCL version 2.27.7+cuda13.0",
      "gpu01:2771:2771 [0] NCCL INFO [Rank 0] ncclCommInitRankConfig comm 0x55d7869cef50 rank 0 nranks 2 cudaDev 0 "
      "nvmlDev 0 busId 101c0 commId 0x52e965372ad155ed - Init START",
      "gpu01:2772:2772 [1] NCCL INFO [Rank 1] ncclCommInitRankConfig comm 0x55d7869cef60 rank 1 nranks 2 cudaDev 1 "
      "nvmlDev 1 busId 201c0 commId 0x52e965372ad155ed - Init START",
      "gpu01:2771:2788 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
  });
}

}  // namespace

TEST_CASE("GRAPH lines are missing only where an enabled rule needs them") {
  JobModel m = runtime_connected();
  JobSummary s = summarize(m);
  auto all = find_gaps(m, s);
  REQUIRE(all.size() == 2);
  CHECK(all[0].reason ==
        "whole rings and trees: the log has no GRAPH lines (`Ring NN : p -> r -> n`) and no ring listings, and NCCL "
        "2.27.7 connects rings at their first use, so ring and tree checks see only part of them");
  CHECK(all[0].rerun == "NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH");
  CHECK(all[0].affects == std::vector<std::string>{"ND2"});
  // A check left undone, not a verdict left open.
  CHECK_FALSE(all[0].blocks_verdict);
  CHECK(all[1].reason == "CPU binding: the input has no launcher binding report");

  auto judged = [&](const Registry& registry, const RuleSelection& selection) {
    CheckReport r;
    r.gaps = all;
    judge(r, registry, selection, FailOn::Error);
    return r;
  };
  Registry without_topology;  // no ND2xxx rule: the gaps concern nobody
  CHECK(judged(without_topology, RuleSelection{}).gaps.empty());
  CHECK(judged(without_topology, RuleSelection{}).verdict == Verdict::Pass);

  Registry with_topology;
  with_topology.add<RingRule>();
  CheckReport r = judged(with_topology, RuleSelection{});
  REQUIRE(r.gaps.size() == 1);
  CHECK(r.gaps[0].affects == std::vector<std::string>{"ND2"});
  REQUIRE(r.rules.size() == 1);
  CHECK(r.rules[0].id == "ND2001");
  CHECK(r.rules[0].gaps == std::vector<size_t>{0});
  RuleSelection no_topology;
  no_topology.disable("ND2001");
  CHECK(judged(with_topology, no_topology).gaps.empty());
  CHECK(judged(with_topology, no_topology).rules.empty());
}

TEST_CASE("a gap names the rules it leaves undecided; one without names only when it blocks the verdict") {
  Gap graph{"no GRAPH lines", "NCCL_DEBUG_SUBSYS=GRAPH", {"ND2"}, false};
  CHECK(gap_affects(graph, "ND2001"));
  CHECK_FALSE(gap_affects(graph, "ND3001"));
  Gap blocking{"no connection lines", "NCCL_DEBUG=INFO"};
  CHECK(gap_affects(blocking, "ND3001"));
  Gap note{"something", "x", {}, false};
  CHECK_FALSE(gap_affects(note, "ND3001"));
}

TEST_CASE("a GRAPH ring line or a listing, or an older NCCL, closes the GRAPH gap") {
  JobModel with_graph = model_from({
      "gpu01:2771:2771 [0] NCCL INFO NCCL version 2.27.7+cuda13.0",
      "gpu01:2771:2771 [0] NCCL INFO [Rank 0] ncclCommInitRankConfig comm 0x55d7869cef50 rank 0 nranks 2 cudaDev 0 "
      "nvmlDev 0 busId 101c0 commId 0x52e965372ad155ed - Init START",
      "gpu01:2771:2771 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1",
      "gpu01:2771:2788 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
  });
  CHECK(find_gaps(with_graph, summarize(with_graph)).size() == 1);  // binding only
  JobModel old = model_from({
      "gpu01:2771:2771 [0] NCCL INFO NCCL version 2.18.3+cuda12.2",
      "gpu01:2771:2771 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
      "gpu01:2771:2771 [0] NCCL INFO comm 0x55d7869cef50 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 101c0 "
      "commId 0x52e965372ad155ed - Init COMPLETE",
  });
  CHECK(find_gaps(old, summarize(old)).size() == 1);
}

TEST_CASE("the gaps that end the list say which lines are missing and what to rerun with") {
  JobModel warn_only = model_from({"gpu01:2771:2771 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4444> "
                                   "with status=12 opcode=0 len=0 vendor err 129 (Recv)"});
  auto gaps = find_gaps(warn_only, summarize(warn_only));
  REQUIRE(gaps.size() == 1);
  CHECK(gaps[0].reason == "the log holds only NCCL WARN lines (NCCL_DEBUG=WARN)");
  CHECK(gaps[0].rerun == "NCCL_DEBUG=INFO");
  CHECK(gaps[0].affects.empty());
}

TEST_CASE("connections whose lines name no host say so, not that Init lines are missing") {
  // NCCL 2.19.3 lines without host:pid:tid, joined by NET only.
  JobModel m = model_from({
      "[0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x1 - Init START",
      "[0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      "[0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x1 - Init COMPLETE",
  });
  JobSummary s = summarize(m);
  CHECK(s.host_unknown_processes == 1);
  CHECK(s.named_hosts == 0);
  auto gaps = find_gaps(m, s);
  REQUIRE(gaps.size() == 2);  // and the binding report
  CHECK(gaps[0].reason ==
        "whether links stay inside a host: no connection's two ranks can be placed on hosts (the log's lines name no "
        "host: their `host:pid:tid` prefix is missing or anonymised)");
  CHECK_FALSE(gaps[0].blocks_verdict);
}
