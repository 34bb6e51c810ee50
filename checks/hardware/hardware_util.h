#pragma once
// How the hardware (ND4xxx) rules name the ports they judge.

#include <string>

#include "src/probe/node_snapshot.h"

namespace nd {

// "mlx5_0 port 1", the way findings name a port.
std::string port_name(const HcaInfo& hca, const PortInfo& port);
// The port's sysfs directory, relative to the sysfs root, for evidence.
std::string port_dir(const HcaInfo& hca, const PortInfo& port);

}  // namespace nd
