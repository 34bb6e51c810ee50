#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("a memlock limit below unlimited, or below memlock=N") {
  CHECK(messages(run_node_rule("memlock-too-low", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"error: memlock limit is 64 KiB (need unlimited): ibv_reg_mr will fail with ENOMEM "
                                 "(ulimit -l unlimited; Slurm: PropagateResourceLimitsExcept=MEMLOCK; Docker: "
                                 "--ulimit memlock=-1)"});
  Expectations e;
  REQUIRE(parse_expectations("memlock=1G", e) == "");
  CHECK(run_node_rule("memlock-too-low", node_fixture("dgx-h100-ib", "ok"), e).empty());
}
