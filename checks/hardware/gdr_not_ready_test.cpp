#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("GPUs and NICs without a peer-memory module or dma-buf") {
  CHECK(messages(run_node_rule("gdr-not-ready", node_fixture("broken", "ok"))) ==
        std::vector<std::string>{"error: GPUDirect RDMA is not ready: no nvidia_peermem / nv_peer_mem module and "
                                 "dma-buf support was not detected; NCCL will stage GPU buffers through host memory "
                                 "(modprobe nvidia-peermem)"});
  CHECK(run_node_rule("gdr-not-ready", node_fixture("dgx-h100-ib", "ok")).empty());
}

TEST_CASE("gdr=no: a site without GPUDirect RDMA is told nothing") {
  Expectations no_gdr;
  REQUIRE(parse_expectations("gdr=no", no_gdr) == "");
  CHECK(run_node_rule("gdr-not-ready", node_fixture("broken", "ok"), no_gdr).empty());
}
