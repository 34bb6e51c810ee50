#pragma once
// What the probe learns about one node. It is the only input of the
// hardware rules and round-trips through `probe --json`, so a rule never
// sees anything a record from another node could not carry.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nd {

inline constexpr uint64_t kMemlockUnlimited = UINT64_MAX;

// A sysfs file that could not be read or did not parse.
struct ReadIssue {
  std::string path;   // relative to the sysfs root
  std::string error;  // "EINVAL", "unexpected contents: 'banana'"
};

struct GidInfo {
  uint32_t index = 0;
  std::string gid;   // as sysfs prints it, 8 full groups
  std::string type;  // "RoCE v2", "IB/RoCE v1", "" when unreadable
  std::string ndev;
};

struct PortInfo {
  uint32_t port = 0;
  int state = -1;       // kernel numbering; -1 unknown
  int phys_state = -1;
  std::optional<double> rate_gbps;
  std::optional<uint32_t> width;
  std::string speed;       // "NDR"
  std::string rate_text;   // raw, for the report
  std::string rate_error;  // "EINVAL" when the kernel refused the read
  std::string link_layer;  // "ib", "roce", or the raw text
  std::optional<uint32_t> lid;
  std::optional<uint32_t> sm_lid;
  std::optional<uint32_t> active_mtu;  // bytes, from verbs only
  std::vector<GidInfo> gids;           // non-zero entries only
  std::vector<std::string> pkeys;      // non-zero entries only
  std::map<std::string, uint64_t> counters;  // error counters that read as numbers
};

struct PciLink {
  std::string current_speed, max_speed;  // "32.0 GT/s PCIe"
  std::optional<uint32_t> current_width, max_width;
};

struct HcaInfo {
  std::string name;       // "mlx5_0"
  std::string pci_bdf;
  std::string pci_path;   // realpath relative to the root
  int numa_node = -1;
  std::vector<std::string> netdevs;
  std::string node_type, fw_ver, node_guid, sys_image_guid, hca_type, board_id;
  PciLink link;
  bool has_uverbs = false;   // class/infiniband_verbs/uverbsN names it
  std::string verbs_state;   // "ok", "not listed", "open failed: EACCES", "not loaded"
  std::vector<PortInfo> ports;
};

struct GpuInfo {
  std::string pci_bdf;
  std::string pci_path;
  std::string device_id;  // "0x2330"
  int numa_node = -1;
  PciLink link;
  std::string nearest_hca;      // empty when no HCA
  std::string nearest_path;     // "PIX" … "SYS"
};

struct BridgeAcs {
  std::string bdf;
  std::string state;   // acs_state_str()
  std::string detail;  // control bits or why unknown
};

struct GpuNicPath {
  std::string gpu;  // BDF
  std::string hca;  // name
  std::string type; // "PIX" …
  std::vector<BridgeAcs> bridges;
};

struct GdrInfo {
  std::vector<std::string> peermem_markers;  // sysfs files found
  std::optional<bool> dmabuf;                // from verbs; nullopt = not tested
  std::optional<bool> peer_memory_api;       // ib_register_peer_memory_client in kallsyms
  bool ready() const { return !peermem_markers.empty() || dmabuf.value_or(false); }
};

struct IommuInfo {
  std::vector<std::string> units;        // class/iommu entries
  std::map<std::string, std::string> group_types;  // BDF → "identity"/"DMA-FQ"
};

struct HostInfo {
  std::string host;
  std::optional<uint32_t> rank;
  std::string rank_source;  // "SLURM_PROCID"
  std::optional<uint64_t> memlock_soft;  // bytes; kMemlockUnlimited
  std::optional<bool> cap_ipc_lock;
  std::string kernel;
  std::string nvidia_driver;  // /sys/module/nvidia/version
  std::string nccl_version;   // when the environment tells (NCCL_VERSION)
};

struct VerbsInfo {
  std::string status;   // "ok", "no-devices", "not-installed", "backend-missing", "error", "skipped"
  std::string message;  // human detail
  std::vector<std::string> devices;  // names libibverbs listed
};

struct NodeSnapshot {
  HostInfo host;
  VerbsInfo verbs;
  bool uverbs_abi = false;  // class/infiniband_verbs/abi_version present
  std::vector<HcaInfo> hcas;
  std::vector<GpuInfo> gpus;
  std::vector<GpuNicPath> paths;  // one per GPU × HCA
  GdrInfo gdr;
  IommuInfo iommu;
  std::vector<ReadIssue> issues;
};

}  // namespace nd
