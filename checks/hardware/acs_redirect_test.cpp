#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("ACS redirect on each bridge between a GPU and its NIC, once per bridge") {
  auto found = run_node_rule("acs-redirect", node_fixture("broken", "ok"));
  REQUIRE(found.size() == 3);
  CHECK(messages(found)[0] == "error: ACS redirects peer traffic at bridge 0000:16:00.0 between GPU 0000:1b:00.0 and "
                              "mlx5_0: GPUDirect traffic goes through the root complex (slow or hangs); disable ACS "
                              "in the BIOS or with setpci -s 0000:16:00.0 ECAP_ACS+0x6.w=0000");
  CHECK(found[0].evidence[0].file == "bus/pci/devices/0000:16:00.0/config");
  CHECK(found[0].evidence[0].text == "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-");
  CHECK(found[0].hosts == std::vector<std::string>{"gpu-17"});
}

TEST_CASE("ACS unknown without root is information, not an error") {
  CHECK(messages(run_node_rule("acs-redirect", node_fixture("roce-cx6dx", "ok"))) ==
        std::vector<std::string>{"info: ACS on 1 bridge(s) between GPUs and NICs is unknown: reading PCI extended "
                                 "config space needs root (run the probe as root to check)"});
}
