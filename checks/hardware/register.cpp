// Every ND4xxx rule, sorted by ID. Adding a rule means adding it here.
#include "checks/hardware/hardware_rule.h"

#include "checks/hardware/no_rdma_device.h"
#include "checks/hardware/verbs_unusable.h"
#include "checks/hardware/port_not_active.h"
#include "checks/hardware/link_degraded.h"
#include "checks/hardware/link_layer_mismatch.h"
#include "checks/hardware/roce_no_v2_gid.h"
#include "checks/hardware/gdr_not_ready.h"
#include "checks/hardware/memlock_too_low.h"
#include "checks/hardware/acs_redirect.h"
#include "checks/hardware/gpu_nic_cross_socket.h"
#include "checks/hardware/port_error_counters.h"
#include "checks/hardware/hca_count.h"
#include "checks/hardware/ib_lid_invalid.h"
#include "checks/hardware/firmware_mismatch.h"
#include "checks/hardware/probe_read_failed.h"
#include "checks/hardware/pcie_link_degraded.h"

namespace nd {

const std::vector<std::unique_ptr<HardwareRule>>& hardware_rules() {
  // Built once, never destroyed: rules outlive every caller.
  static const auto* rules = [] {
    auto* v = new std::vector<std::unique_ptr<HardwareRule>>();
    v->push_back(std::make_unique<NoRdmaDevice>());
    v->push_back(std::make_unique<VerbsUnusable>());
    v->push_back(std::make_unique<PortNotActive>());
    v->push_back(std::make_unique<LinkDegraded>());
    v->push_back(std::make_unique<LinkLayerMismatch>());
    v->push_back(std::make_unique<RoceNoV2Gid>());
    v->push_back(std::make_unique<GdrNotReady>());
    v->push_back(std::make_unique<MemlockTooLow>());
    v->push_back(std::make_unique<AcsRedirect>());
    v->push_back(std::make_unique<GpuNicCrossSocket>());
    v->push_back(std::make_unique<PortErrorCounters>());
    v->push_back(std::make_unique<HcaCount>());
    v->push_back(std::make_unique<IbLidInvalid>());
    v->push_back(std::make_unique<FirmwareMismatch>());
    v->push_back(std::make_unique<ProbeReadFailed>());
    v->push_back(std::make_unique<PcieLinkDegraded>());
    return v;
  }();
  return *rules;
}

}  // namespace nd
