#pragma once
// The verbs layer as the probe needs it, with no rdma-core types in sight:
// the real backend lives in a plugin linked against libibverbs and opened at
// run time; unit tests and replayed captures use ScriptedVerbsProbe.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nd {

struct VerbsPort {
  uint32_t port = 0;
  int state = 0;        // ibv_port_state
  int phys_state = 0;
  int max_mtu = 0;      // ibv_mtu enum: 1=256 … 5=4096
  int active_mtu = 0;
  int active_width = 0; // ibv width bitmask: 1=1X 2=4X 4=8X 8=12X 16=2X
  int active_speed = 0; // per-lane speed bitmask
  int link_layer = 0;   // 0 unspecified, 1 InfiniBand, 2 Ethernet
  uint32_t lid = 0, sm_lid = 0;
  int gid_tbl_len = 0;
  uint32_t cap_flags = 0;
};

struct VerbsDevice {
  std::string name;
  std::string fw_ver;
  uint64_t node_guid = 0;      // host order
  uint32_t vendor_id = 0;      // IEEE OUI (0x02c9), not the PCI vendor
  uint32_t vendor_part_id = 0; // decimal 4129
  uint32_t phys_port_cnt = 0;
  int dmabuf = -1;             // ibv_reg_dmabuf_mr probe: 1 yes, 0 no, -1 untested
  std::vector<VerbsPort> ports;
};

class VerbsProbe {
 public:
  virtual ~VerbsProbe() = default;
  // Names libibverbs lists (those with a provider and an accessible uverbs
  // node). Returns 0 or an errno (ENOSYS: no ib_uverbs in the kernel).
  virtual int list_devices(std::vector<std::string>& names) = 0;
  // Opens, queries device and ports, closes. 0 or an errno from the step that failed.
  virtual int query_device(const std::string& name, VerbsDevice& out) = 0;
};

// Bumped when VerbsProbe or its structs change: the plugin and the tool must
// come from the same build.
inline constexpr uint32_t kVerbsPluginAbi = 1;

// ibv_mtu enum → bytes (0 when unknown).
uint32_t verbs_mtu_bytes(int mtu);

}  // namespace nd

// The one symbol the plugin exports. Returns nullptr on ABI mismatch.
extern "C" nd::VerbsProbe* nd_verbs_plugin_create(uint32_t abi);
