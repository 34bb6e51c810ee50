#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("non-zero error counters, a saturated one said so") {
  CHECK(messages(run_node_rule("port-error-counters", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"warning: mlx5_5 port 1 error counters are not zero: link_downed=255 (saturated), "
                                 "symbol_error=12 (flapping link or bad cable; compare again after clearing with "
                                 "perfquery -x)"});
  CHECK(run_node_rule("port-error-counters", node_fixture("dgx-h100-ib", "ok")).empty());
}
