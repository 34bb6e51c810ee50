#include "checks/hardware/pcie_link_degraded.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void PcieLinkDegraded::check(const HardwareContext& ctx, FindingSink& out) const {
  auto check_link = [&](const std::string& what, const std::string& bdf, const PciLink& l) {
    bool narrow = l.current_width && l.max_width && *l.current_width < *l.max_width;
    bool slow = !l.current_speed.empty() && !l.max_speed.empty() && l.current_speed != l.max_speed &&
                std::strtod(l.current_speed.c_str(), nullptr) < std::strtod(l.max_speed.c_str(), nullptr);
    if (!narrow && !slow) return;
    Finding f = node_finding(kInfo, ctx.node, fmt::format("{} PCIe link runs at {} x{}, capable of {} x{} "
                             "(down-trained: reseat or check the riser)", what, l.current_speed,
                             l.current_width.value_or(0), l.max_speed, l.max_width.value_or(0)));
    add_evidence(f, "bus/pci/devices/" + bdf + "/current_link_width", std::to_string(l.current_width.value_or(0)));
    out.add(std::move(f));
  };
  for (const auto& h : ctx.node.hcas) check_link(fmt::format("{} ({})", h.name, h.pci_bdf), h.pci_bdf, h.link);
  for (const auto& g : ctx.node.gpus) check_link("GPU " + g.pci_bdf, g.pci_bdf, g.link);
}

}  // namespace nd
