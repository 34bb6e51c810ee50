#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("HCAs of one type on different firmware, grouped by version") {
  CHECK(messages(run_node_rule("firmware-mismatch", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"warning: MT4129 HCAs run different firmware: 28.37.1014 on mlx5_5; 28.39.1002 on "
                                 "mlx5_0,mlx5_3,mlx5_4"});
  CHECK(run_node_rule("firmware-mismatch", node_fixture("dgx-h100-ib", "ok")).empty());
}
