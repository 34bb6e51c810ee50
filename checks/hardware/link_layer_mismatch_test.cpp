#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("link=roce on an InfiniBand node names every port") {
  NodeSnapshot n = node_fixture("dgx-h100-ib", "ok");
  CHECK(run_node_rule("link-layer-mismatch", n).empty());
  Expectations e;
  REQUIRE(parse_expectations("link=roce", e) == "");
  auto found = run_node_rule("link-layer-mismatch", n, e);
  REQUIRE(found.size() == 8);
  CHECK(messages(found)[0] == "error: mlx5_0 port 1 link layer is InfiniBand, expected Ethernet (RoCE)");
}
