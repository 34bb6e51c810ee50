// The real verbs backend: a plugin linked against libibverbs, opened with
// dlopen by verbs_loader.cpp. Keeping every rdma-core reference in here is
// what lets the tool itself start on nodes without rdma-core.

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstring>

#include "src/probe/verbs_probe.h"

namespace nd {
namespace {

// Closes what it opened on every path out of query_device.
struct Closer {
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  ~Closer() {
    if (pd != nullptr) ibv_dealloc_pd(pd);
    if (ctx != nullptr) ibv_close_device(ctx);
  }
};

class IbverbsProbe final : public VerbsProbe {
 public:
  int list_devices(std::vector<std::string>& names) override {
    names.clear();
    int n = 0;
    errno = 0;
    ibv_device** list = ibv_get_device_list(&n);
    if (list == nullptr) return errno != 0 ? errno : ENOSYS;
    for (int i = 0; i < n; ++i) names.emplace_back(ibv_get_device_name(list[i]));
    ibv_free_device_list(list);
    return 0;
  }

  int query_device(const std::string& name, VerbsDevice& out) override {
    int n = 0;
    ibv_device** list = ibv_get_device_list(&n);
    if (list == nullptr) return errno != 0 ? errno : ENOSYS;
    ibv_device* dev = nullptr;
    for (int i = 0; i < n; ++i) {
      if (name == ibv_get_device_name(list[i])) dev = list[i];
    }
    Closer c;
    if (dev != nullptr) {
      errno = 0;
      c.ctx = ibv_open_device(dev);
    }
    int open_errno = errno != 0 ? errno : ENODEV;
    ibv_free_device_list(list);
    if (c.ctx == nullptr) return open_errno;

    ibv_device_attr attr{};
    if (int rc = ibv_query_device(c.ctx, &attr); rc != 0) return rc;
    out.name = name;
    out.fw_ver = attr.fw_ver;
    out.node_guid = be64toh(attr.node_guid);
    out.vendor_id = attr.vendor_id;
    out.vendor_part_id = attr.vendor_part_id;
    out.phys_port_cnt = attr.phys_port_cnt;
    for (uint8_t p = 1; p <= attr.phys_port_cnt; ++p) {
      ibv_port_attr pa{};
      if (ibv_query_port(c.ctx, p, &pa) != 0) continue;
      VerbsPort vp;
      vp.port = p;
      vp.state = pa.state;
      vp.phys_state = pa.phys_state;
      vp.max_mtu = pa.max_mtu;
      vp.active_mtu = pa.active_mtu;
      vp.active_width = pa.active_width;
      vp.active_speed = pa.active_speed;
      vp.link_layer = pa.link_layer;
      vp.lid = pa.lid;
      vp.sm_lid = pa.sm_lid;
      vp.gid_tbl_len = pa.gid_tbl_len;
      vp.cap_flags = pa.port_cap_flags;
      out.ports.push_back(vp);
    }
    // NCCL's dma-buf test: a zero-length registration of fd -1 fails with
    // EOPNOTSUPP/EPROTONOSUPPORT when the kernel or provider lacks dma-buf,
    // with something else (EBADF) when it has it.
    c.pd = ibv_alloc_pd(c.ctx);
    if (c.pd != nullptr) {
      errno = 0;
      ibv_mr* mr = ibv_reg_dmabuf_mr(c.pd, 0, 0, 0, -1, 0);
      if (mr != nullptr) {
        ibv_dereg_mr(mr);
        out.dmabuf = 1;
      } else {
        out.dmabuf = (errno == EOPNOTSUPP || errno == EPROTONOSUPPORT) ? 0 : 1;
      }
    }
    return 0;
  }
};

}  // namespace
}  // namespace nd

extern "C" nd::VerbsProbe* nd_verbs_plugin_create(uint32_t abi) {
  if (abi != nd::kVerbsPluginAbi) return nullptr;
  return new nd::IbverbsProbe();
}
