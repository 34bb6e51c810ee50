#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("no RDMA device: sockets between nodes, and whether rdma-core is there") {
  CHECK(messages(run_node_rule("no-rdma-device", node_fixture("no-rdma", "ok"))) ==
        std::vector<std::string>{"error: no RDMA device in /sys/class/infiniband: NCCL will use TCP sockets between "
                                 "nodes"});
  CHECK(messages(run_node_rule("no-rdma-device", node_fixture("no-rdma", "not-installed"))) ==
        std::vector<std::string>{"error: no RDMA device in /sys/class/infiniband: NCCL will use TCP sockets between "
                                 "nodes (and rdma-core is not installed)"});
  Expectations none_wanted;
  REQUIRE(parse_expectations("hcas=0", none_wanted) == "");
  CHECK(run_node_rule("no-rdma-device", node_fixture("no-rdma", "ok"), none_wanted).empty());
  CHECK(run_node_rule("no-rdma-device", node_fixture("dgx-h100-ib", "ok")).empty());
}
