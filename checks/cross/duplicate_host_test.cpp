#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("a host that sent several records, once per host") {
  auto found = run_cluster_rule("duplicate-host",
                                {healthy_node("n1"), healthy_node("n2"), healthy_node("n1"), healthy_node("n1")});
  CHECK(messages(found) == std::vector<std::string>{"warning: host n1 sent 3 records: run one probe per node (srun "
                                                    "--ntasks-per-node=1, mpirun --map-by ppr:1:node)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"n1"});
  CHECK(run_cluster_rule("duplicate-host", {healthy_node("n1"), healthy_node("n2")}).empty());
}
