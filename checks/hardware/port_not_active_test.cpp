#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("ports that are not ACTIVE, with their state and physical state") {
  CHECK(messages(run_node_rule("port-not-active", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"error: mlx5_3 port 1 is DOWN / Polling: NCCL skips ports that are not ACTIVE",
                                 "error: mlx5_4 port 1 is INIT / LinkUp: NCCL skips ports that are not ACTIVE"});
  CHECK(run_node_rule("port-not-active", node_fixture("dgx-h100-ib", "ok")).empty());
}
