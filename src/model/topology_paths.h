#pragma once
// What `nvidia-smi topo -m` says about one pair of devices, in the order
// NCCL ranks PCIe paths: PIX < PXB < PHB < NODE < SYS, NVLink (NV#) apart.

#include <optional>
#include <string>
#include <string_view>

#include "parsers/gpu/gpu_records.h"
#include "src/model/gpu_side.h"

namespace nd {

// A PCIe path's rank for "nearest": PIX 0 … SYS 4; none for NV# and X.
std::optional<int> pci_path_rank(std::string_view link);
// "NV18", "NV4": the devices share bonded NVLinks.
bool is_nvlink(std::string_view link);
// How many: "NV12" -> 12; none for a PCIe or CPU path.
std::optional<uint32_t> nvlink_count(std::string_view link);

// The cell of row `a`, column `b` ("NV18", "PIX", …); empty when the
// matrix has none.
std::string topo_link(const TopoMatrix& m, const std::string& a, const std::string& b);

struct NicPath {
  std::string nic;   // "mlx5_0", as the NIC Legend resolved it
  std::string path;  // "PIX" … "SYS"
};
// The NIC with the best PCIe path from `gpu` ("GPU3"); ties go to the
// first in column order. None when the matrix lists no NIC.
std::optional<NicPath> nearest_nic(const TopoMatrix& m, const std::string& gpu);

// The matrix that describes `host`: the one printed under its name (exactly,
// or the same short name), else the one matrix that named no host (a bare
// `topo -m` file beside a job of identical nodes), when every unnamed matrix
// of the input agrees. None otherwise.
const TopologyFact* topology_of_host(const GpuSide& side, std::string_view host);

}  // namespace nd
