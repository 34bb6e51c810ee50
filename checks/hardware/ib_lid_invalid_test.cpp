#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("an InfiniBand port without a LID has no subnet manager") {
  CHECK(messages(run_node_rule("ib-lid-invalid", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"error: mlx5_4 port 1 has LID 0x0 and SM LID 0x0: no subnet manager has configured "
                                 "it (check opensm / UFM)"});
  CHECK(run_node_rule("ib-lid-invalid", node_fixture("dgx-h100-ib", "ok")).empty());
}
