#include "src/probe/ib_attrs.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("state lines keep the number and tolerate odd names") {
  CHECK(parse_state_line("4: ACTIVE") == 4);
  CHECK(parse_state_line("2: Polling\n") == 2);
  CHECK(parse_state_line("7: Phy Test") == 7);
  CHECK_FALSE(parse_state_line("banana"));
  CHECK_FALSE(parse_state_line(""));
  CHECK_FALSE(parse_state_line("999: X"));
}

TEST_CASE("state helpers name known values and show unknown ones raw") {
  CHECK(port_state_str(4) == "ACTIVE");
  CHECK(port_state_str(9) == "unknown (9)");
  CHECK(phys_state_str(2) == "Polling");
  CHECK(phys_state_str(-1) == "unknown (-1)");
}

TEST_CASE("rates as the kernel prints them") {
  auto r = parse_rate("400 Gb/sec (4X NDR)");
  REQUIRE(r);
  CHECK(r->gbps == 400);
  CHECK(r->width == 4u);
  CHECK(r->speed == "NDR");
  auto sdr = parse_rate("2.5 Gb/sec (1X SDR)");
  REQUIRE(sdr);
  CHECK(sdr->gbps == 2.5);
  auto old = parse_rate("10 Gb/sec (4X)");
  REQUIRE(old);
  CHECK(old->speed.empty());
  auto mofed = parse_rate("0 GB/sec");
  REQUIRE(mofed);
  CHECK(mofed->gbps == 0);
  CHECK(parse_rate("200 Gb/sec (2X NDR)")->width == 2u);
  CHECK_FALSE(parse_rate("fast"));
  CHECK_FALSE(parse_rate("400 furlongs"));
  CHECK_FALSE(parse_rate("400 Gb/sec (QX NDR)"));
}

TEST_CASE("link layers and GID types") {
  CHECK(link_layer_key("InfiniBand") == "ib");
  CHECK(link_layer_key("Ethernet") == "roce");
  CHECK(link_layer_key("") == "unknown");
  CHECK(roce_version("RoCE v2") == 2);
  CHECK(roce_version("IB/RoCE v1") == 1);
  CHECK(roce_version("") == 0);
}

TEST_CASE("GID classification") {
  CHECK(gid_is_zero("0000:0000:0000:0000:0000:0000:0000:0000"));
  CHECK_FALSE(gid_is_zero("fe80:0000:0000:0000:ba3f:d2ff:fe2d:6502"));
  CHECK(gid_is_link_local("fe80:0000:0000:0000:ba3f:d2ff:fe2d:6502"));
  CHECK(gid_is_ipv4_mapped("0000:0000:0000:0000:0000:ffff:0a00:0001"));
  CHECK(gid_ipv4("0000:0000:0000:0000:0000:ffff:0a00:0001") == "10.0.0.1");
  CHECK(gid_ipv4("fe80:0000:0000:0000:ba3f:d2ff:fe2d:6502").empty());
}

TEST_CASE("saturated legacy counters") {
  CHECK(counter_saturated(255));
  CHECK(counter_saturated(65535));
  CHECK(counter_saturated(4294967295ull));
  CHECK_FALSE(counter_saturated(12));
}
