#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("a NIC whose PCIe link trained below its capability") {
  CHECK(messages(run_node_rule("pcie-link-degraded", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"warning: mlx5_5 (0000:5e:00.0) PCIe link runs at 32.0 GT/s PCIe x8, capable of 32.0 "
                                 "GT/s PCIe x16 (down-trained: reseat or check the riser)"});
  CHECK(run_node_rule("pcie-link-degraded", node_fixture("dgx-h100-ib", "ok")).empty());
}
