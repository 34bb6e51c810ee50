#pragma once
// GPU↔NIC distance from sysfs PCI paths, classified the way NCCL and
// `nvidia-smi topo -m` do, and the ACS redirect bits of the bridges between.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd {

// Ordered best to worst. NCCL folds NODE into PHB; we keep nvidia-smi's split
// because "other host bridge, same socket" is worth telling apart.
enum class PathType : uint8_t { PIX, PXB, PHB, NODE, SYS, Unknown };

std::string path_type_str(PathType t);  // "PIX" … "SYS", "unknown"
std::optional<PathType> path_type_from_str(std::string_view s);

struct PciChain {
  std::string host_bridge;            // "pci0000:15"
  std::vector<std::string> bridges;   // BDFs from the root port down, device excluded
  std::string device;                 // the function itself
};

// Splits "devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:18:00.0".
std::optional<PciChain> parse_pci_path(std::string_view path);

bool is_bdf(std::string_view s);  // "0000:18:00.0"

// numa -1 = unknown. Mirrors NCCL's common-ancestor rule: different NUMA →
// SYS; no common bridge → PHB (same host bridge) or NODE; both devices one
// switch level below the deepest common bridge → PIX; otherwise PXB.
PathType classify_path(const PciChain& a, int numa_a, const PciChain& b, int numa_b);

// The bridges whose ACS settings decide whether peer traffic between a and b
// is redirected: the deepest common one and everything below it.
std::vector<std::string> bridges_between(const PciChain& a, const PciChain& b);

enum class AcsState : uint8_t { NoCapability, Clear, Redirect, Unknown };
std::string acs_state_str(AcsState s);

struct AcsInfo {
  AcsState state = AcsState::Unknown;
  uint16_t control = 0;  // ACS Control register when read
  std::string detail;    // "SrcValid+ ReqRedir+ CmpltRedir+", or why unknown
};

// Walks the extended capability list of a config-space dump. Unprivileged
// reads return only the first 64 bytes: that is "unknown, needs root", not
// "disabled".
AcsInfo acs_from_config(std::string_view config);

// "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd- EgressCtrl- DirectTrans-"
std::string acs_control_str(uint16_t control);

}  // namespace nd
