#include "src/probe/pci_topology.h"

#include <cstring>

#include <doctest/doctest.h>

using namespace nd;

namespace {

PciChain chain(const char* path) {
  auto c = parse_pci_path(path);
  REQUIRE(c);
  return *c;
}

std::string config_with_acs(uint16_t control) {
  std::string cfg(4096, '\0');
  auto put32 = [&](size_t off, uint32_t v) { std::memcpy(&cfg[off], &v, 4); };  // little-endian host
  put32(0x100, 0x0001 | (1u << 16) | (0x148u << 20));
  put32(0x148, 0x000d | (1u << 16));
  put32(0x14c, 0x007fu | (uint32_t{control} << 16));
  return cfg;
}

}  // namespace

TEST_CASE("PCI paths split into host bridge, bridges and device") {
  auto c = chain("devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0/infiniband/mlx5_0");
  CHECK(c.host_bridge == "pci0000:15");
  CHECK(c.bridges == std::vector<std::string>{"0000:15:01.0", "0000:16:00.0", "0000:17:00.0"});
  CHECK(c.device == "0000:18:00.0");
  CHECK_FALSE(parse_pci_path("devices/virtual/net/lo"));
  CHECK_FALSE(parse_pci_path(""));
}

TEST_CASE("GPU and NIC on one switch are PIX, nested switches PXB") {
  auto nic = chain("devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0");
  auto gpu = chain("devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:1b:00.0");
  CHECK(classify_path(gpu, 0, nic, 0) == PathType::PIX);
  auto deep = chain("devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:02.0/0000:19:00.0/0000:1a:00.0/0000:1c:00.0");
  CHECK(classify_path(deep, 0, nic, 0) == PathType::PXB);
  CHECK(bridges_between(gpu, nic) == std::vector<std::string>{"0000:16:00.0", "0000:17:01.0", "0000:17:00.0"});
}

TEST_CASE("host bridge, other host bridge and other socket") {
  auto a = chain("devices/pci0000:15/0000:15:01.0/0000:18:00.0");
  auto b = chain("devices/pci0000:15/0000:15:02.0/0000:1b:00.0");
  auto c = chain("devices/pci0000:3d/0000:3d:01.0/0000:40:00.0");
  CHECK(classify_path(a, 0, b, 0) == PathType::PHB);
  CHECK(classify_path(a, 0, c, 0) == PathType::NODE);
  CHECK(classify_path(a, 0, c, 1) == PathType::SYS);
  CHECK(classify_path(a, -1, c, 1) == PathType::NODE);
  CHECK(path_type_str(PathType::SYS) == "SYS");
  CHECK(path_type_from_str("PXB") == PathType::PXB);
  CHECK_FALSE(path_type_from_str("XYZ"));
}

TEST_CASE("ACS control bits from config space") {
  auto redirect = acs_from_config(config_with_acs(0x001d));
  CHECK(redirect.state == AcsState::Redirect);
  CHECK(redirect.detail == "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-");
  CHECK(acs_from_config(config_with_acs(0x0011)).state == AcsState::Clear);
}

TEST_CASE("64 bytes of config space means unknown, not disabled") {
  auto a = acs_from_config(std::string(64, '\0'));
  CHECK(a.state == AcsState::Unknown);
  CHECK(acs_state_str(a.state) == "unknown, needs root");
  CHECK(a.detail == "config space shows 64 bytes (extended capabilities need root)");
}

TEST_CASE("a hostile capability list ends the walk") {
  std::string cfg(4096, '\0');
  uint32_t loop = 0x0001 | (0x100u << 20);  // points at itself
  std::memcpy(&cfg[0x100], &loop, 4);
  CHECK(acs_from_config(cfg).state == AcsState::NoCapability);
  std::string past_end(4096, '\0');
  uint32_t far = 0x0001 | (0xffcu << 20);
  std::memcpy(&past_end[0x100], &far, 4);
  CHECK(acs_from_config(past_end).state == AcsState::NoCapability);
}
