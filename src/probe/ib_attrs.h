#pragma once
// Parsers for the text the kernel's InfiniBand sysfs prints, and enum→text
// helpers in the style of ibv_devinfo: never crash, always show the raw value.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd {

// Port logical state, numbered as the kernel and ibv_port_state.
enum PortStateValue : int { kPortDown = 1, kPortInit = 2, kPortArmed = 3, kPortActive = 4, kPortActiveDefer = 5 };
// Physical state, numbered as the kernel's phys_state file.
enum PhysStateValue : int { kPhysSleep = 1, kPhysPolling = 2, kPhysDisabled = 3, kPhysTraining = 4, kPhysLinkUp = 5,
                            kPhysErrorRecovery = 6, kPhysPhyTest = 7 };

// "4: ACTIVE" → 4. The number is the contract; the name is for people.
std::optional<int> parse_state_line(std::string_view s);

std::string port_state_str(int state);  // "ACTIVE", "unknown (9)"
std::string phys_state_str(int state);  // "LinkUp", "Polling", "unknown (9)"

struct LinkRate {
  double gbps = 0;             // total, as the kernel prints it (400, 2.5)
  std::optional<uint32_t> width;  // lanes: 1, 2, 4, 8, 12
  std::string speed;           // per-lane token: "NDR", "EDR"; "" when absent
};
// "400 Gb/sec (4X NDR)", "10 Gb/sec (4X)", old MOFED's "0 GB/sec".
std::optional<LinkRate> parse_rate(std::string_view s);

// Normalised link layer: "InfiniBand" → "ib", "Ethernet" → "roce".
std::string link_layer_key(std::string_view sysfs_value);

// "RoCE v2" → 2, "IB/RoCE v1" and "RoCE v1" → 1, anything else → 0.
int roce_version(std::string_view gid_type);

// GIDs as sysfs prints them: 8 colon-separated groups of 4 hex digits.
bool gid_is_zero(std::string_view gid);
bool gid_is_ipv4_mapped(std::string_view gid);  // ::ffff:a.b.c.d
bool gid_is_link_local(std::string_view gid);   // fe80::/64
// "0000:0000:0000:0000:0000:ffff:0a00:0001" → "10.0.0.1"; empty if not mapped.
std::string gid_ipv4(std::string_view gid);

// Legacy PMA counters saturate at their width; treat these values as "at least".
bool counter_saturated(uint64_t value);

}  // namespace nd
