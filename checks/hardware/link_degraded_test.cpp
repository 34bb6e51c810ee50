#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("zero-config: a port slower than the node's other ports of its link layer") {
  CHECK(messages(run_node_rule("link-degraded", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"error: mlx5_5 port 1 runs at 200 Gb/s while other ports of this node run at 400 "
                                 "Gb/s (degraded link: cable, transceiver or width)"});
}

TEST_CASE("with rate=N every port below it, though all ports agree") {
  NodeSnapshot n = node_fixture("dgx-h100-ib", "ok");
  CHECK(run_node_rule("link-degraded", n).empty());
  Expectations e;
  REQUIRE(parse_expectations("rate=800", e) == "");
  auto found = run_node_rule("link-degraded", n, e);
  REQUIRE(found.size() == 8);
  CHECK(messages(found)[0] == "error: mlx5_0 port 1 runs at 400 Gb/s, expected 800 Gb/s");
}
