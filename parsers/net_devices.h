#pragma once
// Parses the device list of `NET/<name> : Using ...`:
//   IB (2.4+)        ` [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.4.19<0>`
//   IB (2.26+)       ` [0]mlx5_0:1:<rail>[:<plane>]/IB`, link type `UNSPECIFIED`
//   IB merged (2.20) ` [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB}` (the members are listed)
//   Socket           ` [0]ib0:10.1.0.10<0> [1]eth0:10.0.0.3<0>`
// The OOB interface after `;` is not a data device and is not returned.

#include <string_view>
#include <vector>

#include "parsers/events.h"

namespace nd {

std::vector<NetDeviceEntry> parse_net_devices(std::string_view list);

}  // namespace nd
