#include "src/model/topology_paths.h"

#include <doctest/doctest.h>

namespace nd {
namespace {

TopologyFact matrix_of(std::string host, std::string gpu0_to_gpu1) {
  TopologyFact t;
  t.host = std::move(host);
  t.matrix.devices = {"GPU0", "GPU1"};
  t.matrix.links["GPU0"] = {{"GPU0", "X"}, {"GPU1", gpu0_to_gpu1}};
  t.matrix.links["GPU1"] = {{"GPU0", gpu0_to_gpu1}, {"GPU1", "X"}};
  return t;
}

}  // namespace

TEST_CASE("NVLink cells give their link count, other paths none") {
  CHECK(nvlink_count("NV12") == 12u);
  CHECK(nvlink_count("NV4") == 4u);
  for (std::string_view other : {"NV", "NV0", "NV#", "NV1x", "NVLS", "PIX", "SYS", "X", ""}) {
    CAPTURE(other);
    CHECK(!nvlink_count(other));
    CHECK(!is_nvlink(other));
  }
  CHECK(is_nvlink("NV18"));
}

TEST_CASE("a host's matrix: its own by name, else the unnamed one when all unnamed ones agree") {
  GpuSide side;
  side.topologies = {matrix_of("", "NV12"), matrix_of("gpu02.cluster", "PIX")};
  REQUIRE(topology_of_host(side, "gpu02") != nullptr);
  CHECK(topology_of_host(side, "gpu02")->host == "gpu02.cluster");
  REQUIRE(topology_of_host(side, "gpu01") != nullptr);
  CHECK(topology_of_host(side, "gpu01")->host.empty());
  CHECK(topology_of_host(side, "")->host.empty());

  side.topologies.push_back(matrix_of("", "NV12"));
  CHECK(topology_of_host(side, "gpu01") != nullptr);  // the same matrix twice
  side.topologies.push_back(matrix_of("", "SYS"));
  CHECK(topology_of_host(side, "gpu01") == nullptr);  // two different nodes: which one?
  CHECK(topology_of_host(side, "gpu02") != nullptr);
}

}  // namespace nd
