#include "src/model/networks.h"

#include <doctest/doctest.h>

#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("network families: IB or RoCE from the device the link used (NCCL 2.18.3+)") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/IB [RO]; OOB eth0:10.3.0.21<0>",
      "gpuB:200:200 [0] NCCL INFO Using network IB",
  });
  uint32_t a = *m.hosts.find("gpuA");
  uint32_t b = *m.hosts.find("gpuB");
  CHECK(network_family(m, a, "IB", 0) == "RoCE");
  CHECK(network_family(m, a, "IB", 1) == "IB");
  // No device index, or a host without a list: the layer all listed devices share, else IB.
  CHECK(network_family(m, a, "IB") == "IB");
  CHECK(network_family(m, b, "IBext_v8", 0) == "IB");
  CHECK(network_family(m, a, "NCCL RDMA Plugin v8", 0) == "RoCE");
  CHECK(network_family(m, a, "Socket", 0) == "Socket");
  CHECK(network_family(m, a, "MyNet", 0) == "MyNet");
}

TEST_CASE("network families: a RoCE-only job names hosts that printed no list RoCE too") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.3.0.21<0>",
      "gpuB:200:200 [0] NCCL INFO Using network IB",
  });
  CHECK(network_family(m, *m.hosts.find("gpuB"), "IB", 1) == "RoCE");
}

TEST_CASE("network families: aws-ofi-nccl is EFA unless its provider says otherwise") {
  auto efa = model_from({
      "ip-10-0-12-41:100:100 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)",
      "ip-10-0-12-41:100:100 [0] NCCL INFO Using network AWS Libfabric",
  });
  CHECK(network_family(efa, *efa.hosts.find("ip-10-0-12-41"), "AWS Libfabric", 0) == "EFA");
  CHECK(network_family(efa, kNoHost, "Libfabric") == "EFA");
  auto cxi = model_from({
      "nid001:100:100 [0] NCCL INFO NET/OFI Selected provider is cxi, fabric is cxi (found 4 nics)",
  });
  CHECK(network_family(cxi, *cxi.hosts.find("nid001"), "Libfabric", 0) == "Libfabric");
}

TEST_CASE("chosen networks: Using network and the 2.27+ plugin manager, never a plugin that failed") {
  auto m = model_from({
      "gpu51:100:100 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)",
      "gpu51:100:100 [0] NCCL INFO Failed to initialize NET plugin Libfabric",
      "gpu51:100:100 [0] NCCL INFO Initialized NET plugin IB",
      "gpu51:100:100 [0] NCCL INFO Assigned NET plugin IB to comm",
      "gpu52:200:200 [0] NCCL INFO Assigned NET plugin IB to comm",
      "gpu51:100:100 [0] NCCL INFO Using network IB",
  });
  auto chosen = chosen_networks(m);
  REQUIRE(chosen.size() == 2);
  CHECK(chosen[0].name == "IB");
  CHECK(m.host_name(chosen[0].host) == "gpu51");
  CHECK(chosen[0].line.line == 4);
  CHECK(m.host_name(chosen[1].host) == "gpu52");
  REQUIRE(m.net_notes.size() == 5);
  CHECK(m.net_notes[1].note == NetNote::PluginInitFailed);
  CHECK(m.net_notes[1].name == "Libfabric");
  CHECK(*m.text_of(m.net_notes[1].line) == "gpu51:100:100 [0] NCCL INFO Failed to initialize NET plugin Libfabric");
}

TEST_CASE("IB at work: completion and verbs WARNs, once per host") {
  auto m = model_from({
      "gpu07:100:100 [0] NCCL INFO Using network IB",
      "",
      "gpu07:100:160 [0] transport/net_ib.cc:2353 NCCL WARN NET/IB: Got completion from peer 10.1.0.8<49513> with "
      "status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_0",
      "gpu07:100:160 [0] transport/net_ib.cc:2353 NCCL WARN NET/IB: Got completion from peer 10.1.0.8<49513> with "
      "status=5 opcode=0 len=0 vendor err 249 (Recv) hca mlx5_0",
      "gpu08:200:260 [0] misc/ibvwrap.cc:210 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out errno 110",
  });
  auto at_work = ib_at_work(m);
  REQUIRE(at_work.size() == 2);
  CHECK(m.host_name(at_work[0].host) == "gpu07");
  CHECK(at_work[0].line.line == 3);
  CHECK(m.host_name(at_work[1].host) == "gpu08");
  // The notes keep each distinct status; the WARNs stay WARNs for nccl-warning.
  CHECK(m.net_notes.size() == 3);
  CHECK(m.warnings.size() == 3);
}

TEST_CASE("NICs that NCCL fused into one device are one device, named as NCCL names it (2.21-2.23)") {
  auto m = model_from({
      "bigo:1884:2298 [0] NCCL INFO NET/IB : Using [0]={[0] mlx5_2:1/RoCE, [1] mlx5_3:1/RoCE} [2]mlx5_0:1/RoCE [RO]; "
      "OOB bond0:10.0.0.9<0>",
  });
  REQUIRE(m.host_nets.size() == 1);
  const auto& devices = m.host_nets[0].devices;
  REQUIRE(devices.size() == 2);
  CHECK(devices[0].index == 0);
  CHECK(devices[0].name == "mlx5_2+mlx5_3");
  CHECK(devices[1].index == 1);
  CHECK(devices[1].name == "mlx5_0");
}
