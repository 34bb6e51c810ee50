#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("one device without a provider, the others fine") {
  CHECK(messages(run_node_rule("verbs-unusable", node_fixture("dgx-h100-ib", "ok", "mlx5_4"))) ==
        std::vector<std::string>{"error: mlx5_4 is in sysfs but not usable through verbs: libibverbs does not list "
                                 "it (no user-space provider such as libmlx5 for this device, or "
                                 "/dev/infiniband/uverbsN is not accessible in this container)"});
}

TEST_CASE("devices in sysfs without rdma-core; no devices, nothing to use") {
  CHECK(messages(run_node_rule("verbs-unusable", node_fixture("dgx-h100-ib", "not-installed"))) ==
        std::vector<std::string>{"error: 8 RDMA device(s) in sysfs but libibverbs is not usable: cannot load "
                                 "libibverbs.so.1"});
  CHECK(run_node_rule("verbs-unusable", node_fixture("no-rdma", "not-installed")).empty());
}
