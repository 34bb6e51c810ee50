#pragma once
// ND40xx: one node's fabric as its probe record shows it, judged against the
// expectations (--expect). Each rule is declared and defined in its own .cpp;
// its factory is listed here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_no_rdma_device();  // ND4001
std::unique_ptr<Rule> make_verbs_unusable();  // ND4002
std::unique_ptr<Rule> make_port_not_active();  // ND4003
std::unique_ptr<Rule> make_link_degraded();  // ND4004
std::unique_ptr<Rule> make_link_layer_mismatch();  // ND4005
std::unique_ptr<Rule> make_roce_no_v2_gid();  // ND4006
std::unique_ptr<Rule> make_gdr_not_ready();  // ND4007
std::unique_ptr<Rule> make_memlock_too_low();  // ND4008
std::unique_ptr<Rule> make_acs_redirect();  // ND4009
std::unique_ptr<Rule> make_gpu_nic_cross_socket();  // ND4010
std::unique_ptr<Rule> make_port_error_counters();  // ND4011
std::unique_ptr<Rule> make_hca_count();  // ND4012
std::unique_ptr<Rule> make_ib_lid_invalid();  // ND4013
std::unique_ptr<Rule> make_firmware_mismatch();  // ND4014
std::unique_ptr<Rule> make_probe_read_failed();  // ND4015
std::unique_ptr<Rule> make_pcie_link_degraded();  // ND4016

}  // namespace nd
