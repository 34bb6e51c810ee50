#include "checks/rule.h"

#include <doctest/doctest.h>

#include "checks/check_fixture.h"

using namespace nd;

namespace {

// Says what it sees of each node, once with the rule's severity, once milder.
class NodeEcho final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4999", "node-echo", Severity::Error, Needs::Node, "echoes"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override {
    Finding f = make_finding(kInfo, node.host.host + " expects " + std::to_string(ctx.options.expect.hcas.value_or(0)));
    add_evidence(f, "class/infiniband", "(empty)");
    out.add(std::move(f));
    out.add(make_finding(kInfo, "a note", Severity::Info));
  }
};

}  // namespace

TEST_CASE("make_finding takes id, slug and severity from the rule, or the severity given") {
  Finding f = make_finding(NodeEcho::kInfo, "text");
  CHECK(f.id == "ND4999");
  CHECK(f.slug == "node-echo");
  CHECK(f.severity == Severity::Error);
  CHECK(f.message == "text");
  CHECK(f.hosts.empty());
  CHECK(make_finding(NodeEcho::kInfo, "text", Severity::Warning).severity == Severity::Warning);
}

TEST_CASE("a node rule runs once per node and names the node, by label and rank, in each finding") {
  NodeSnapshot a, b;
  a.host.host = "gpu-1";
  b.host.host = "gpu-2";
  b.host.rank = 7;
  std::vector<ProbedNode> nodes = {{"gpu-1", &a}, {"gpu-2#7", &b}};
  JobModel no_log;
  CheckOptions options;
  options.expect.hcas = 8;
  FindingList sink;
  NodeEcho().check(CheckContext{no_log, options, nodes}, sink);
  REQUIRE(sink.findings.size() == 4);
  CHECK(messages(sink.findings) ==
        std::vector<std::string>{"error: gpu-1 expects 8", "info: a note", "error: gpu-2 expects 8", "info: a note"});
  CHECK(sink.findings[0].hosts == std::vector<std::string>{"gpu-1"});
  CHECK(sink.findings[0].ranks.empty());
  CHECK(sink.findings[0].evidence.at(0).file == "class/infiniband");
  CHECK(sink.findings[0].evidence.at(0).line == 0);
  CHECK(sink.findings[0].evidence.at(0).text == "(empty)");
  CHECK(sink.findings[3].hosts == std::vector<std::string>{"gpu-2#7"});
  CHECK(sink.findings[3].ranks == std::vector<uint32_t>{7});
}

TEST_CASE("without probe records a node rule has nothing to judge") {
  JobModel no_log;
  FindingList sink;
  NodeEcho().check(CheckContext{no_log, CheckOptions{}}, sink);
  CHECK(sink.findings.empty());
}

TEST_CASE("host lists in messages: a few by name, the rest counted, all of them with -v") {
  CheckOptions brief;
  std::vector<std::string> hosts = {"a", "b", "c", "d", "e"};
  CHECK(names_text(hosts, brief) == "a, b, c and 2 more");
  CHECK(names_text({"a", "b", "c", "d"}, brief) == "a, b, c, d");
  CheckOptions verbose;
  verbose.full_lists = true;
  CHECK(names_text(hosts, verbose) == "a, b, c, d, e");
  std::vector<uint32_t> ranks;
  for (uint32_t r = 0; r < 200; r += 2) ranks.push_back(r);
  CHECK(ranges_text(ranks, 0, brief).ends_with(",... (100 in all)"));
  CHECK(ranges_text(ranks, 0, verbose).size() > 200);
}
