#pragma once
// Parses the device list of `NET/<name> : Using ...`:
//   IB (2.4+)        ` [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.4.19<0>`
//   IB (2.26+)       ` [0]mlx5_0:1:<rail>[:<plane>]/IB`, link type `UNSPECIFIED`
//   IB merged (2.20) ` [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB}` (the members are listed)
//   Socket           ` [0]ib0:10.1.0.10<0> [1]eth0:10.0.0.3<0>`
// The OOB interface after `;` is not a data device and is not returned.

#include <cstdint>
#include <string_view>
#include <vector>

#include "parsers/events.h"

namespace nd {

std::vector<NetDeviceEntry> parse_net_devices(std::string_view list);

// The same through the regular expressions it mirrors, for the differential
// test and the fuzzer.
std::vector<NetDeviceEntry> parse_net_devices_re2(std::string_view list);

// The devices of the list before its `;`, a merged NIC counting once.
uint32_t count_net_devices(std::string_view list);

// Why hosts other than its own cannot reach a socket interface NCCL listed
// (`veth25f2e72`, `fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>`).
struct SocketReach {
  bool loopback = false;    // 127.0.0.0/8 or ::1: each host has its own
  bool link_local = false;  // fe80::/10 or 169.254.0.0/16: one link only
  bool host_bridge = false; // docker*, br-*, veth*, virbr*, lxcbr*, podman*: a host-private bridge
  bool ipv6 = false;        // the address is IPv6, reachable or not
  bool unreachable() const { return loopback || link_local || host_bridge; }
};
SocketReach socket_reach(std::string_view interface, std::string_view address);

// Every IPv4 address that follows a ':' and ends in `<port>`, without the
// port: the host's own addresses in `OOB ib0:10.0.4.19<0>`,
// `[0]eno1:192.168.50.11<0>` and `Bootstrap : Using ib0:10.1.0.10<0>`.
std::vector<std::string_view> socket_addresses(std::string_view text);
// The first `name:address<port>` NCCL listed after `Using`, any address
// family, without the port: `ib0` and `fe80::1%ib0` in `Bootstrap : Using
// [0]ib0:fe80::1%ib0<0> [1]eth0:10.0.0.3<0>`. Empty when there is none.
struct SocketEndpoint {
  std::string_view interface;
  std::string_view address;
};
SocketEndpoint first_listed_endpoint(std::string_view text);
// The interface an address of `socket_addresses(text)` is listed under:
// "ib0" for "[0]ib0:10.1.0.8<0>" or "Using ib0:10.1.0.8<0>"; empty if none.
std::string_view socket_interface(std::string_view text, std::string_view address);

}  // namespace nd
