#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("a RoCE port with only RoCE v1 GIDs") {
  CHECK(messages(run_node_rule("roce-no-v2-gid", node_fixture("roce-no-v2", "ok"))) ==
        std::vector<std::string>{"error: mlx5_0 port 1 has no RoCE v2 GID (only RoCE v1 / IB): NCCL picks RoCE v2 by "
                                 "default"});
  CHECK(run_node_rule("roce-no-v2-gid", node_fixture("roce-cx6dx", "ok")).empty());
}
