#include "checks/hardware/gdr_not_ready.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {

void GdrNotReady::check(const HardwareContext& ctx, FindingSink& out) const {
  const NodeSnapshot& n = ctx.node;
  bool wanted = ctx.expect.gdr.value_or(!n.gpus.empty() && !n.hcas.empty());
  if (!wanted || n.gdr.ready()) return;
  std::string msg = "GPUDirect RDMA is not ready: no nvidia_peermem / nv_peer_mem module";
  msg += n.gdr.dmabuf ? " and the RDMA stack refuses dma-buf" : " and dma-buf support was not detected";
  msg += "; NCCL will stage GPU buffers through host memory";
  if (n.gdr.peer_memory_api == false) {
    msg += " (this kernel's ib_core lacks the peer-memory API nvidia_peermem needs: use dma-buf, i.e. the open "
           "GPU kernel modules and rdma-core >= 34, or MLNX_OFED/DOCA)";
  } else {
    msg += " (modprobe nvidia-peermem)";
  }
  Finding f = node_finding(kInfo, n, msg);
  add_evidence(f, "module/nvidia_peermem/version", "(missing)");
  out.add(std::move(f));
}

}  // namespace nd
