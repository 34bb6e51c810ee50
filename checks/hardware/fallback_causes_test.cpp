#include "checks/hardware/fallback_causes.h"

#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

namespace {

Finding finding(std::string id, std::vector<std::string> hosts, std::string message = "link") {
  Finding f;
  f.id = std::move(id);
  f.message = std::move(message);
  f.hosts = std::move(hosts);
  f.evidence = {{"job.log", 108, "socket line 1"}, {"job.log", 109, "socket line 2"}};
  return f;
}

RecordedNode recorded(std::string host, uint64_t line, std::vector<Finding> findings) {
  return RecordedNode{std::move(host), "probes.jsonl", line, std::move(findings)};
}

}  // namespace

TEST_CASE("a log host and a record host are one host by name or short name") {
  CHECK(same_host("gpu009", "gpu009"));
  CHECK(same_host("gpu009", "gpu009.cluster.example"));
  CHECK(same_host("gpu009.cluster.example", "gpu009"));
  CHECK_FALSE(same_host("gpu009", "gpu0090"));
  CHECK_FALSE(same_host("gpu009", "gpu028"));
  CHECK_FALSE(same_host("10.0.0.5", "10.0.0.6"));  // addresses, not short names
  CHECK_FALSE(same_host("gpu009.a.example", "gpu009.b.example"));
  CHECK_FALSE(same_host("", ""));
}

TEST_CASE("each fallback is explained by the node rules of its causes") {
  CHECK(fallback_cause_rules("ND3001").size() == 7);
  CHECK(fallback_cause_rules("ND3005").size() == 7);
  CHECK(std::vector<std::string_view>(fallback_cause_rules("ND3004").begin(), fallback_cause_rules("ND3004").end()) ==
        std::vector<std::string_view>{"ND4007", "ND4009", "ND4010"});
  CHECK(std::vector<std::string_view>(fallback_cause_rules("ND3002").begin(), fallback_cause_rules("ND3002").end()) ==
        std::vector<std::string_view>{"ND4009"});
  CHECK(fallback_cause_rules("ND2001").empty());
}

TEST_CASE("a socket fallback cites the DOWN port of the record of one of its hosts") {
  NodeSnapshot broken = node_fixture("broken", "ok");
  broken.host.host = "gpu009.cluster.example";
  std::vector<Finding> down = run_node_rule("port-not-active", broken);
  REQUIRE(down.size() == 2);
  std::vector<RecordedNode> nodes = {recorded("gpu009.cluster.example", 3, down), recorded("gpu028", 5, {})};
  std::vector<Finding> findings = {finding("ND3001", {"gpu009", "gpu028"})};
  explain_fallbacks(findings, nodes, 3);
  const Finding& f = findings[0];
  CHECK(f.message ==
        "link; the probe records show why: gpu009.cluster.example: mlx5_3 port 1 is DOWN / Polling; "
        "gpu009.cluster.example: mlx5_4 port 1 is INIT / LinkUp");
  REQUIRE(f.evidence.size() == 3);
  CHECK(f.evidence[0].line == 108);
  CHECK(f.evidence[1].file == "probes.jsonl");
  CHECK(f.evidence[1].line == 3);
  CHECK(f.evidence[1].text == "gpu009.cluster.example: mlx5_3 port 1 is DOWN / Polling (probe record)");
  CHECK(f.evidence[2].text == "gpu009.cluster.example: mlx5_4 port 1 is INIT / LinkUp (probe record)");
  CHECK(f.related == std::vector<std::string>{"ND4003"});
}

TEST_CASE("a GPUDirect fallback cites the missing peermem; other rules and other hosts are left alone") {
  NodeSnapshot node = healthy_node("a100-05");
  node.gdr = {};  // no nvidia_peermem, dma-buf untested
  std::vector<Finding> gdr = run_node_rule("gdr-not-ready", node);
  REQUIRE(gdr.size() == 1);
  std::vector<RecordedNode> nodes = {recorded("a100-05", 1, gdr)};
  std::vector<Finding> findings = {finding("ND3004", {"a100-05", "a100-06"}), finding("ND3001", {"a100-05"}),
                                   finding("ND3004", {"a100-07"})};
  explain_fallbacks(findings, nodes, 2);
  CHECK(findings[0].message == "link; the probe records show why: a100-05: GPUDirect RDMA is not ready");
  REQUIRE(findings[0].evidence.size() == 2);
  CHECK(findings[0].evidence[0].line == 108);  // one line of the log stays
  CHECK(findings[0].evidence[1].text == "a100-05: GPUDirect RDMA is not ready (probe record)");
  CHECK(findings[0].related == std::vector<std::string>{"ND4007"});
  // Sockets are not explained by GPUDirect, nor a host without a record.
  CHECK(findings[1].message == "link");
  CHECK(findings[1].related.empty());
  CHECK(findings[2].message == "link");
  CHECK(findings[2].evidence.size() == 2);
}

TEST_CASE("a healthy record explains nothing") {
  NodeSnapshot node = healthy_node("gpu009");
  node.host.memlock_soft = kMemlockUnlimited;  // the fixture reads this process's limit
  std::vector<Finding> all;
  for (std::string_view rule : {"no-rdma-device", "verbs-unusable", "port-not-active", "gdr-not-ready",
                                "acs-redirect", "gpu-nic-cross-socket", "memlock-too-low"}) {
    auto found = run_node_rule(rule, node);
    all.insert(all.end(), found.begin(), found.end());
  }
  CHECK(all.empty());
  std::vector<RecordedNode> nodes = {recorded("gpu009", 1, all)};
  std::vector<Finding> findings = {finding("ND3001", {"gpu009", "gpu028"})};
  explain_fallbacks(findings, nodes, 3);
  CHECK(findings[0].message == "link");
  CHECK(findings[0].evidence.size() == 2);
}
