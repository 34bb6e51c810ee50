#include "parsers/net_devices.h"

#include <random>
#include <string>

#include <doctest/doctest.h>

#include "parsers/mutation.h"

using namespace nd;

TEST_CASE("net devices: IB list with [RO] and OOB (2.12.7+)") {
  auto d = parse_net_devices(" [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.4.19<0>");
  REQUIRE(d.size() == 2);
  CHECK(d[0].index == 0);
  CHECK(d[0].name == "mlx5_0");
  CHECK(d[0].port == 1);
  CHECK(d[0].link_layer == "IB");
  CHECK(d[1].index == 1);
  CHECK(d[1].name == "mlx5_1");
  CHECK(d[1].link_layer == "RoCE");
}

TEST_CASE("net devices: 2.4-2.11 list, rail/plane (2.30.7) and UNSPECIFIED (2.26+)") {
  auto old = parse_net_devices(" [0]mlx5_0:1/IB ; OOB ib0:10.1.0.10<0>");
  REQUIRE(old.size() == 1);
  CHECK(old[0].name == "mlx5_0");
  auto rail = parse_net_devices(" [0]mlx5_0:1:0:1/IB [1]mlx5_3:1:3/UNSPECIFIED ; OOB ib0:10.1.0.10<0>");
  REQUIRE(rail.size() == 2);
  CHECK(rail[0].port == 1);
  CHECK(rail[1].name == "mlx5_3");
  CHECK(rail[1].link_layer == "UNSPECIFIED");
}

TEST_CASE("net devices: fused NICs list their members under the device's index (2.21-2.23)") {
  auto d = parse_net_devices(" [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [1]={[2] mlx5_2:1/IB, [3] mlx5_3:1/IB} ; OOB ib0:10.1.0.10<0>");
  REQUIRE(d.size() == 4);
  CHECK(d[3].index == 1);  // `via NET/IB/1` is the second fused device
  CHECK(d[3].name == "mlx5_3");
  CHECK(d[1].index == 0);
  // A device alone after a fused one prints its HCA number, not its device index.
  d = parse_net_devices(" [0]={[0] mlx5_2:1/RoCE, [1] mlx5_3:1/RoCE} [2]mlx5_0:1/RoCE [RO]; OOB bond0:10.0.0.9<0>");
  REQUIRE(d.size() == 3);
  CHECK(d[2].name == "mlx5_0");
  CHECK(d[2].index == 1);
  CHECK(parse_net_devices_re2(" [0]={[0] mlx5_2:1/RoCE, [1] mlx5_3:1/RoCE} [2]mlx5_0:1/RoCE [RO]; OOB bond0:10.0.0.9<0>")[2].index == 1);
}

TEST_CASE("net devices: socket interfaces; OOB is not a device; junk gives nothing") {
  auto s = parse_net_devices(" [0]ib0:10.1.0.10<0> [1]eth0:fe80::1%eth0<0>");
  REQUIRE(s.size() == 2);
  CHECK(s[0].name == "ib0");
  CHECK(s[0].address == "10.1.0.10<0>");
  CHECK(s[0].port == -1);
  CHECK(s[1].address == "fe80::1%eth0<0>");
  CHECK(parse_net_devices(" ; OOB eth0:10.0.4.19<0>").empty());
  CHECK(parse_net_devices(" garbage [x]y").empty());
}

TEST_CASE("net devices: the count of a list, a merged NIC once, the OOB interface not") {
  CHECK(count_net_devices(" [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; OOB ib0:10.1.0.10<0>") == 4);
  CHECK(count_net_devices(" [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} ; OOB ib0:10.1.0.10<0>") == 1);
  CHECK(count_net_devices(" [0]ib0:10.1.0.10<0> [1]eth0:10.0.0.3<0>") == 2);
  CHECK(count_net_devices("") == 0);
}

TEST_CASE("socket addresses: IPv4 after a colon and before <port>") {
  auto a = socket_addresses(" [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.4.19<0>");
  REQUIRE(a.size() == 1);
  CHECK(a[0] == "10.0.4.19");
  a = socket_addresses(" [0]eno1:192.168.50.11<0> [1]eno2:192.168.51.11<0>");
  REQUIRE(a.size() == 2);
  CHECK(a[1] == "192.168.51.11");
  // 2.24+ `Bootstrap: Using`, an IPv6 address, and a number that is no address.
  CHECK(socket_addresses("Bootstrap: Using ib0:10.1.0.10<0>") == std::vector<std::string_view>{"10.1.0.10"});
  CHECK(socket_addresses("Bootstrap : Using eth0:fe80::1%eth0<0>").empty());
  CHECK(socket_addresses("x:1.2.3<0> 10.1.0.10<0>").empty());
}

TEST_CASE("net devices: lengths are checked after the match, as the bounded pattern did") {
  auto d = parse_net_devices(" [0]mlx5_0:1/InfiniBandExtended [1]mlx5_1:1:1234567/IB [2]mlx5_2:1:2:3/IB [1234567]x:1/IB");
  REQUIRE(d.size() == 2);
  CHECK(d[0].name == "mlx5_0");
  CHECK(d[0].link_layer == "InfiniBandExtend");
  CHECK(d[1].name == "mlx5_2");
  CHECK(d[1].port == 1);
  // The entries are views of the list: it must outlive them.
  const std::string sockets = " [0]eth0:10.0.0.1<1234567> [1]eth1:10.0.0.2<0> [2]" + std::string(65, 'e') + ":10.0.0.3<0>";
  auto s = parse_net_devices(sockets);
  REQUIRE(s.size() == 1);
  CHECK(s[0].name == "eth1");
}

TEST_CASE("socket interfaces other hosts cannot reach: loopback, link-local, host bridges") {
  auto reach = [](std::string_view entry) {
    auto d = parse_net_devices(entry);
    REQUIRE(d.size() == 1);
    return socket_reach(d[0].name, d[0].address);
  };
  CHECK_FALSE(reach("[0]eno1:172.18.40.41<0>").unreachable());
  CHECK_FALSE(reach("[0]ib0:fd00::12<0>").unreachable());
  // BGP-unnumbered hosts put their routable address on lo.
  CHECK_FALSE(reach("[0]lo:10.20.0.7<0>").unreachable());
  CHECK_FALSE(reach("[0]flannel.1:10.244.1.0<0>").unreachable());
  auto veth = reach("[1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>");
  CHECK(veth.link_local);
  CHECK(veth.host_bridge);
  CHECK_FALSE(veth.loopback);
  CHECK(reach("[0]lo:127.0.0.1<0>").loopback);
  CHECK(reach("[0]lo:::1<0>").loopback);
  CHECK(reach("[0]docker0:172.17.0.1<0>").host_bridge);
  CHECK(reach("[0]eth0:169.254.3.1<0>").link_local);
  CHECK(reach("[0]eth0:FEBF::1<0>").link_local);
  CHECK_FALSE(reach("[0]eth0:fec0::1<0>").link_local);
  // The family, whatever the reach: IPv6 wants NCCL_SOCKET_FAMILY in a fix.
  CHECK(veth.ipv6);
  CHECK(reach("[0]ib0:fd00::12<0>").ipv6);
  CHECK(reach("[0]lo:::1<0>").ipv6);
  CHECK_FALSE(reach("[0]eno1:172.18.40.41<0>").ipv6);
  CHECK_FALSE(reach("[0]eth0:169.254.3.1<0>").ipv6);
}

namespace {

std::string describe(const std::vector<NetDeviceEntry>& d) {
  std::string s;
  for (const auto& e : d) {
    s += "[" + std::to_string(e.index) + "|" + std::string(e.name) + "|" + std::to_string(e.port) + "|" +
         std::string(e.link_layer) + "|" + std::string(e.address) + "]";
  }
  return s;
}

void check_same(const std::string& list) {
  INFO("list: " << list);
  CHECK(describe(parse_net_devices(list)) == describe(parse_net_devices_re2(list)));
}

}  // namespace

TEST_CASE("net devices: the hand scan agrees with the regular expressions it mirrors") {
  const std::vector<std::string> seeds = {
      " [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.4.19<0>",
      " [0]mlx5_0:1:0:1/IB [1]mlx5_3:1:3/UNSPECIFIED ; OOB ib0:10.1.0.10<0>",
      " [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [1]={[2] mlx5_2:1/IB, [3] mlx5_3:1/IB} ; OOB ib0:10.1.0.10<0>",
      " [0]={[0] mlx5_2:1/RoCE, [1] mlx5_3:1/RoCE} [2]mlx5_0:1/RoCE [RO]; OOB bond0:10.0.0.9<0>",
      " [0]ib0:10.1.0.10<0> [1]eth0:fe80::1%eth0<0>",
      " [0]mlx5_bond_0:1/RoCE [1]ibp12s0:1/IB",
      " [0]eth0:10.0.0.1<1234567> [1]eth1:10.0.0.2<0> [2]eth2@vlan:10.0.0.3<0>",
      " [0]mlx5_0:1/InfiniBandExtended [1]mlx5_1:1:1234567/IB [2]mlx5_2:1:2:3/IB [1234567]x:1/IB",
      "[[0]mlx5_0:1/IB",
      " [0]\tmlx5_0:1/IB [1] mlx5_1:1:/IB [2]mlx5_2::1/IB [3]mlx5_3:1/ [4]:1/IB",
      " [0]eth0:<0> [1]eth1:a<> [2]eth2:a b<0> [3]eth3:a<0 [4]eth4:\xff\xfe<9>",
      "",
  };
  for (const auto& s : seeds) check_same(s);
  const std::string alphabet = " []{}:;/<>@%_.-=0123456789mlxethIBRoCE\t\r\n\f\v\xff";
  std::mt19937 rng(20261204);
  for (int i = 0; i < 50000; ++i) check_same(test::mutated(seeds[rng() % seeds.size()], alphabet, rng));
}

TEST_CASE("the first endpoint of a list: the bootstrap's interface and address, any family") {
  auto first = [](std::string_view text) {
    auto e = first_listed_endpoint(text);
    return std::string(e.interface) + " " + std::string(e.address);
  };
  CHECK(first("Bootstrap : Using bond0:10.5.1.5<0>") == "bond0 10.5.1.5");
  CHECK(first("Bootstrap: Using ib0:fe80::a288:c203:d2:aaf2%ib0<0>") == "ib0 fe80::a288:c203:d2:aaf2%ib0");
  CHECK(first("Bootstrap : Using [0]lo:::1<0> [1]eth0:10.0.0.3<0>") == "lo ::1");
  CHECK(first("Bootstrap timings total 0.002 (create 0.000)") == " ");
  CHECK(first("Bootstrap : Using") == " ");
  CHECK(first("Bootstrap : Using [0") == " ");
  CHECK(first("Bootstrap : Using eth0 10.0.0.1<0>") == " ");
  CHECK(first("Bootstrap : Using :10.0.0.1<0>") == " ");
}
