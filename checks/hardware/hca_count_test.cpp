#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("fewer RDMA devices than hcas=N, and which there are") {
  Expectations e;
  REQUIRE(parse_expectations("hcas=9", e) == "");
  CHECK(messages(run_node_rule("hca-count", node_fixture("dgx-h100-ib", "ok"), e)) ==
        std::vector<std::string>{"error: 8 RDMA device(s) (mlx5_0, mlx5_3, mlx5_4, mlx5_5, mlx5_6, mlx5_9, mlx5_10, "
                                 "mlx5_11), expected 9"});
  REQUIRE(parse_expectations("hcas=8", e) == "");
  CHECK(run_node_rule("hca-count", node_fixture("dgx-h100-ib", "ok"), e).empty());
}
