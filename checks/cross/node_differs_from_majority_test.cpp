#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("identical nodes: nothing to say") {
  std::vector<NodeSnapshot> nodes = {healthy_node("n1"), healthy_node("n2"), healthy_node("n3")};
  CHECK(run_cluster_rule("node-differs-from-majority", nodes).empty());
}

TEST_CASE("one slow, old-firmware node among four is the only one flagged") {
  std::vector<NodeSnapshot> nodes = {healthy_node("n1"), healthy_node("n2"), healthy_node("n3"), healthy_node("n4")};
  nodes[2].hcas[5].ports[0].rate_gbps = 200;
  nodes[2].hcas[5].fw_ver = "28.37.1014";
  auto found = run_cluster_rule("node-differs-from-majority", nodes);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "error: n3 differs from the majority on port rates: 7x400 Gb/s, 1x200 Gb/s (majority: 8x400 Gb/s on 3 of "
            "4 nodes)",
            "warning: n3 differs from the majority on HCA firmware: MT4129 28.37.1014, MT4129 28.39.1002 (majority: "
            "MT4129 28.39.1002 on 3 of 4 nodes)"});
  for (const auto& f : found) CHECK(f.hosts == std::vector<std::string>{"n3"});
}

TEST_CASE("two nodes that disagree have no majority") {
  std::vector<NodeSnapshot> nodes = {healthy_node("a"), healthy_node("b")};
  nodes[1].gdr.peermem_markers.clear();
  CHECK(messages(run_cluster_rule("node-differs-from-majority", nodes)) ==
        std::vector<std::string>{"warning: nodes disagree on GPUDirect RDMA and no value has a majority: not ready on "
                                 "b; ready on a"});
}
