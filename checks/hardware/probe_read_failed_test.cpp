#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("every file the probe could not read or use, with why") {
  CHECK(messages(run_node_rule("probe-read-failed", node_fixture("garbage", "ok"))) ==
        std::vector<std::string>{
            "warning: cannot use host.json: unexpected contents: not a JSON object",
            "warning: cannot use class/infiniband/mlx5_0/fw_ver: EACCES",
            "warning: cannot use bus/pci/devices/0000:18:00.0/numa_node: unexpected contents: 'x'",
            "warning: cannot use class/infiniband/mlx5_0/ports/1/state: unexpected contents: 'banana'",
            "warning: cannot use class/infiniband/mlx5_0/ports/1/rate: unexpected contents: 'fast'",
            "warning: cannot use class/infiniband/mlx5_0/ports/1/lid: unexpected contents: 'zz'",
            "warning: cannot use class/infiniband/mlx5_0/ports/1/counters/symbol_error: unexpected contents: 'lots'"});
  CHECK(run_node_rule("probe-read-failed", node_fixture("dgx-h100-ib", "ok")).empty());
}
