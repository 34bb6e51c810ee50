#include "checks/hardware/hardware_util.h"

#include <fmt/format.h>

namespace nd {

std::string port_name(const HcaInfo& hca, const PortInfo& port) { return fmt::format("{} port {}", hca.name, port.port); }

std::string port_dir(const HcaInfo& hca, const PortInfo& port) {
  return fmt::format("class/infiniband/{}/ports/{}", hca.name, port.port);
}

}  // namespace nd
