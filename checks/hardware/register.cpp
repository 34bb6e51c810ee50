#include "checks/hardware/hardware_rules.h"
#include "checks/registry.h"

namespace nd {

void register_hardware_rules(Registry& r) {
  r.add(make_no_rdma_device());  // ND4001
  r.add(make_verbs_unusable());  // ND4002
  r.add(make_port_not_active());  // ND4003
  r.add(make_link_degraded());  // ND4004
  r.add(make_link_layer_mismatch());  // ND4005
  r.add(make_roce_no_v2_gid());  // ND4006
  r.add(make_gdr_not_ready());  // ND4007
  r.add(make_memlock_too_low());  // ND4008
  r.add(make_acs_redirect());  // ND4009
  r.add(make_gpu_nic_cross_socket());  // ND4010
  r.add(make_port_error_counters());  // ND4011
  r.add(make_hca_count());  // ND4012
  r.add(make_ib_lid_invalid());  // ND4013
  r.add(make_firmware_mismatch());  // ND4014
  r.add(make_probe_read_failed());  // ND4015
  r.add(make_pcie_link_degraded());  // ND4016
}

}  // namespace nd
