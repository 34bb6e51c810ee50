#include "checks/transport/transport_rules.h"
#include "checks/registry.h"

namespace nd {

void register_transport_rules(Registry& r) {
  r.add(make_inter_node_socket());  // ND3001
  r.add(make_intra_node_shm());  // ND3002
  r.add(make_intra_node_net());  // ND3003
  r.add(make_no_gpudirect_rdma());  // ND3004
  r.add(make_inter_node_unknown_net());  // ND3005
  r.add(make_socket_interface_unreachable());  // ND3006
  r.add(make_bootstrap_address_unreachable());  // ND3007
}

}  // namespace nd
