#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("a GPU with no NIC on its CPU socket") {
  CHECK(messages(run_node_rule("gpu-nic-cross-socket", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"warning: GPU 0000:9d:00.0 (NUMA 1) has no NIC on its socket: nearest is mlx5_0 "
                                 "(SYS), so its inter-node traffic crosses the CPU interconnect without GPUDirect"});
  CHECK(run_node_rule("gpu-nic-cross-socket", node_fixture("dgx-h100-ib", "ok")).empty());
}
