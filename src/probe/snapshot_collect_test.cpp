#include "src/probe/snapshot_collect.h"

#include <cerrno>

#include <doctest/doctest.h>

#include "src/probe/scripted_verbs_probe.h"
#include "src/probe/probe_test_config.h"

using namespace nd;

namespace {

NodeSnapshot collect(const std::string& scenario, VerbsSource verbs = {nullptr, "not-installed", "test"}) {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/" + scenario);
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  NodeSnapshot n = collect_snapshot(s, f, verbs);
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  return n;
}

const HcaInfo& hca(const NodeSnapshot& n, const std::string& name) {
  for (const auto& h : n.hcas) {
    if (h.name == name) return h;
  }
  FAIL("no HCA " << name);
  throw;
}

}  // namespace

TEST_CASE("DGX H100: eight NDR ports, each GPU PIX to its rail NIC") {
  NodeSnapshot n = collect("dgx-h100-ib");
  CHECK(n.issues.empty());
  REQUIRE(n.hcas.size() == 8);
  const HcaInfo& m0 = hca(n, "mlx5_0");
  CHECK(m0.pci_bdf == "0000:18:00.0");
  CHECK(m0.numa_node == 0);
  CHECK(m0.netdevs == std::vector<std::string>{"ibp24s0"});
  CHECK(m0.fw_ver == "28.39.1002");
  CHECK(m0.has_uverbs);
  REQUIRE(m0.ports.size() == 1);
  const PortInfo& p = m0.ports[0];
  CHECK(p.state == 4);
  CHECK(p.phys_state == 5);
  CHECK(p.rate_gbps == 400.0);
  CHECK(p.width == 4u);
  CHECK(p.link_layer == "ib");
  CHECK(p.lid == 0x1bu);
  CHECK(p.sm_lid == 1u);
  CHECK(p.pkeys == std::vector<std::string>{"0xffff"});
  CHECK(p.counters.at("symbol_error") == 0);
  REQUIRE(n.gpus.size() == 8);
  CHECK(n.gpus[0].pci_bdf == "0000:1b:00.0");
  CHECK(n.gpus[0].nearest_hca == "mlx5_0");
  CHECK(n.gpus[0].nearest_path == "PIX");
  CHECK(n.gpus[7].nearest_hca == "mlx5_11");
  CHECK(n.paths.size() == 64);
  CHECK(n.gdr.ready());
  CHECK(n.gdr.peermem_markers == std::vector<std::string>{"module/nvidia_peermem/version"});
  CHECK(n.host.nvidia_driver == "535.129.03");
  CHECK(n.verbs.status == "not-installed");
  CHECK(m0.verbs_state == "not loaded");
}

TEST_CASE("GPU-NIC paths across sockets are SYS, across host bridges NODE") {
  NodeSnapshot n = collect("dgx-h100-ib");
  for (const auto& path : n.paths) {
    if (path.gpu == "0000:1b:00.0" && path.hca == "mlx5_3") CHECK(path.type == "NODE");
    if (path.gpu == "0000:1b:00.0" && path.hca == "mlx5_6") CHECK(path.type == "SYS");
    if (path.gpu == "0000:1b:00.0" && path.hca == "mlx5_0") {
      CHECK(path.type == "PIX");
      REQUIRE(path.bridges.size() == 3);
      CHECK(path.bridges[0].state == "no redirect");
    }
  }
}

TEST_CASE("broken node: Polling port with EINVAL rate, INIT port, errors, ACS, SYS GPU") {
  NodeSnapshot n = collect("broken");
  const PortInfo& polling = hca(n, "mlx5_3").ports[0];
  CHECK(polling.phys_state == 2);
  CHECK(polling.rate_error == "EINVAL");
  CHECK_FALSE(polling.rate_gbps);
  CHECK(hca(n, "mlx5_4").ports[0].state == 2);
  const PortInfo& slow = hca(n, "mlx5_5").ports[0];
  CHECK(slow.rate_gbps == 200.0);
  CHECK(slow.counters.at("link_downed") == 255);
  CHECK(slow.counters.count("port_rcv_errors") == 0);
  REQUIRE(n.issues.size() == 1);
  CHECK(n.issues[0].path == "class/infiniband/mlx5_5/ports/1/counters/port_rcv_errors");
  CHECK(n.issues[0].error == "EACCES");
  CHECK_FALSE(n.gdr.ready());
  CHECK(n.host.memlock_soft == 65536u);
  CHECK(n.gpus.back().nearest_path == "SYS");
  bool redirect = false;
  for (const auto& p : n.paths) {
    for (const auto& b : p.bridges) redirect |= b.state == "redirect";
  }
  CHECK(redirect);
}

TEST_CASE("RoCE CX-6 Dx: Ethernet link layer, RoCE v2 GIDs, ACS unknown without root") {
  NodeSnapshot n = collect("roce-cx6dx");
  REQUIRE(n.hcas.size() == 2);
  const PortInfo& p = n.hcas[0].ports[0];
  CHECK(p.link_layer == "roce");
  CHECK(p.rate_gbps == 100.0);
  REQUIRE(p.gids.size() == 4);
  CHECK(p.gids[1].type == "RoCE v2");
  CHECK(p.gids[3].gid == "0000:0000:0000:0000:0000:ffff:0a00:0001");
  CHECK(p.gids[3].ndev == "enp65s0f0np0");
  CHECK(n.gdr.peermem_markers == std::vector<std::string>{"kernel/mm/memory_peers/nv_mem/version"});
  CHECK(n.iommu.units == std::vector<std::string>{"dmar0"});
  REQUIRE(n.gpus.size() == 1);
  CHECK(n.gpus[0].nearest_path == "PIX");
  bool unknown = false;
  for (const auto& path : n.paths) {
    for (const auto& b : path.bridges) unknown |= b.state == "unknown, needs root";
  }
  CHECK(unknown);
}

TEST_CASE("no RDMA at all: GPUs and nothing else") {
  NodeSnapshot n = collect("no-rdma");
  CHECK(n.hcas.empty());
  CHECK(n.gpus.size() == 2);
  CHECK(n.gpus[0].nearest_hca.empty());
  CHECK_FALSE(n.uverbs_abi);
}

TEST_CASE("garbage contents and refused reads become issues, not crashes") {
  NodeSnapshot n = collect("garbage");
  std::vector<std::string> paths;
  for (const auto& i : n.issues) paths.push_back(i.path + ": " + i.error);
  CHECK(paths == std::vector<std::string>{
                     "host.json: unexpected contents: not a JSON object",
                     "class/infiniband/mlx5_0/fw_ver: EACCES",
                     "bus/pci/devices/0000:18:00.0/numa_node: unexpected contents: 'x'",
                     "class/infiniband/mlx5_0/ports/1/state: unexpected contents: 'banana'",
                     "class/infiniband/mlx5_0/ports/1/rate: unexpected contents: 'fast'",
                     "class/infiniband/mlx5_0/ports/1/lid: unexpected contents: 'zz'",
                     "class/infiniband/mlx5_0/ports/1/counters/symbol_error: unexpected contents: 'lots'",
                 });
  CHECK(n.hcas[0].ports[0].state == -1);
}

TEST_CASE("verbs: listed devices are queried, missing providers show") {
  ScriptedVerbsProbe fake;
  VerbsDevice d;
  d.name = "mlx5_0";
  d.dmabuf = 1;
  VerbsPort vp;
  vp.port = 1;
  vp.active_mtu = 5;
  d.ports.push_back(vp);
  fake.devices.push_back(d);
  VerbsDevice d3;
  d3.name = "mlx5_3";
  fake.devices.push_back(d3);
  fake.open_errors["mlx5_3"] = EACCES;
  NodeSnapshot n = collect("dgx-h100-ib", {&fake, "", "fake"});
  CHECK(n.verbs.status == "ok");
  CHECK(hca(n, "mlx5_0").verbs_state == "ok");
  CHECK(hca(n, "mlx5_0").ports[0].active_mtu == 4096u);
  CHECK(hca(n, "mlx5_3").verbs_state == "open failed: EACCES");
  CHECK(hca(n, "mlx5_4").verbs_state == "not listed");
  CHECK(n.gdr.dmabuf == true);
}

TEST_CASE("verbs: an empty list and a failing list") {
  ScriptedVerbsProbe empty;
  NodeSnapshot n = collect("dgx-h100-ib", {&empty, "", ""});
  CHECK(n.verbs.status == "no-devices");
  CHECK(n.verbs.message == "no RDMA devices");
  ScriptedVerbsProbe enosys;
  enosys.list_error = ENOSYS;
  NodeSnapshot m = collect("dgx-h100-ib", {&enosys, "", ""});
  CHECK(m.verbs.status == "no-devices");
  CHECK(m.verbs.message == "no RDMA devices (no ib_uverbs in the kernel)");
  ScriptedVerbsProbe eperm;
  eperm.list_error = EPERM;
  NodeSnapshot e = collect("dgx-h100-ib", {&eperm, "", ""});
  CHECK(e.verbs.status == "error");
  CHECK(e.verbs.message == "ibv_get_device_list failed: EPERM");
}
