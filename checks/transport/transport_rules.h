#pragma once
// ND30xx: which transport each link uses, judged from connection lines.
// Each rule is declared and defined in its own .cpp; its factory is listed
// here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_inter_node_socket();  // ND3001
std::unique_ptr<Rule> make_intra_node_shm();  // ND3002
std::unique_ptr<Rule> make_intra_node_net();  // ND3003
std::unique_ptr<Rule> make_no_gpudirect_rdma();  // ND3004
std::unique_ptr<Rule> make_inter_node_unknown_net();  // ND3005
std::unique_ptr<Rule> make_socket_interface_unreachable();  // ND3006
std::unique_ptr<Rule> make_bootstrap_address_unreachable();  // ND3007

}  // namespace nd
