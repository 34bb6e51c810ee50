#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("fewer records than nodes=N; without nodes=N nothing is missing") {
  Expectations e;
  REQUIRE(parse_expectations("nodes=4", e) == "");
  std::vector<NodeSnapshot> two = {healthy_node("n1"), healthy_node("n2")};
  CHECK(messages(run_cluster_rule("nodes-missing", two, {}, e)) ==
        std::vector<std::string>{"error: 2 node record(s), expected 4: the missing nodes did not run the probe or "
                                 "their output was lost"});
  std::vector<NodeSnapshot> four = {healthy_node("n1"), healthy_node("n2"), healthy_node("n3"), healthy_node("n4")};
  CHECK(run_cluster_rule("nodes-missing", four, {}, e).empty());
  CHECK(run_cluster_rule("nodes-missing", two).empty());
}
