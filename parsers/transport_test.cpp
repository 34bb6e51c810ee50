#include "parsers/transport.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("P2P mechanisms and flags") {
  auto t = parse_transport("P2P/CUMEM/read");
  CHECK(t.family == TransportFamily::P2P);
  CHECK(t.mechanism == "CUMEM");
  CHECK(t.read);
  t = parse_transport("P2P/IPC/read/CE");
  CHECK(t.mechanism == "IPC");
  CHECK(t.copy_engine);
  t = parse_transport("P2P/indirect/3[1b000]/read");
  CHECK(t.mechanism == "indirect");
  CHECK(t.indirect_rank == 3);
  CHECK(parse_transport("P2P/direct pointer").mechanism == "direct pointer");
  CHECK(parse_transport("P2P/common device").mechanism == "common device");
}

TEST_CASE("SHM in all generations") {
  CHECK(parse_transport("direct shared memory").family == TransportFamily::SHM);
  auto t = parse_transport("SHM/direct/direct");
  CHECK(t.family == TransportFamily::SHM);
  CHECK_FALSE(t.copy_engine);
  CHECK(parse_transport("SHM/CE/direct").copy_engine);
  CHECK(parse_transport("SHM/direct").family == TransportFamily::SHM);
}

TEST_CASE("NET read from the right: PXN, GDR, Shared, names with spaces") {
  auto t = parse_transport("NET/IBext/0(8)/GDRDMA");
  CHECK(t.family == TransportFamily::NET);
  CHECK(t.net_name == "IBext");
  CHECK(t.net_dev == 0);
  CHECK(t.proxy_rank == 8);
  CHECK(t.gdr);
  t = parse_transport("NET/AWS Libfabric/0/GDRDMA");
  CHECK(t.net_name == "AWS Libfabric");
  CHECK(t.net_dev == 0);
  t = parse_transport("NET/IBext_v8/1/GDRDMA");
  CHECK(t.net_name == "IBext_v8");
  t = parse_transport("NET/IB/3/GDRDMA(PCI)/Shared");
  CHECK(t.gdr);
  CHECK(t.gdr_pci);
  CHECK(t.shared);
  t = parse_transport("NET/Socket/0");
  CHECK(t.net_name == "Socket");
  CHECK_FALSE(t.gdr);
  CHECK(parse_transport("NET/IB (stub)/0").net_name == "IB (stub)");
}

TEST_CASE("RCCL trailing comm text is ignored; labels") {
  auto t = parse_transport("NET/IB/0/GDRDMA comm 0x7f00 nRanks 16");
  CHECK(t.net_name == "IB");
  CHECK(t.gdr);
  CHECK(transport_label(t) == "NET/IB");
  CHECK(transport_label(parse_transport("P2P/IPC")) == "P2P");
  CHECK(parse_transport("COLLNET/IB SHARP/0/GDRDMA").net_name == "IB SHARP");
  CHECK(parse_transport("NVLS").family == TransportFamily::Unknown);
}

TEST_CASE("bytes that are not printable ASCII end the transport text") {
  auto t = parse_transport("NET/Socket/0\xff\xfe");
  CHECK(t.net_name == "Socket");
  CHECK(t.net_dev == 0);
  CHECK(t.raw == "NET/Socket/0");
}

TEST_CASE("a record joined after two blanks, even one cut short, is not part of the transport") {
  auto t = parse_transport("NET/IB/1/GDRDMA      hostA:13:23 [");
  CHECK(t.raw == "NET/IB/1/GDRDMA");
  CHECK(t.net_name == "IB");
  CHECK(t.net_dev == 1);
  CHECK(t.gdr);
  CHECK(parse_transport("P2P/CUMEM/read\t\tgpu01:1:1 [0] NCCL INFO").raw == "P2P/CUMEM/read");
  CHECK(parse_transport("NET/AWS Libfabric/0/GDRDMA").net_name == "AWS Libfabric");
  CHECK(parse_transport("NET/IB/0/GDRDMA`").gdr);
}

TEST_CASE("network families by name, as NCCL and the plugins print them") {
  // NCCL's own, 2.4+ and the 2.30 stub build.
  CHECK(net_family("IB") == NetFamily::Verbs);
  CHECK(net_family("Socket") == NetFamily::Socket);
  CHECK(net_family("Socket (stub)") == NetFamily::Socket);
  CHECK(net_family("IB (stub)") == NetFamily::Unknown);
  // nccl-rdma-sharp-plugins (HPC-X): its names after init, and before
  // (`Loaded net plugin NCCL RDMA Plugin v8 (v8)`, `via NET/NCCL RDMA Plugin v8/0/GDRDMA`).
  CHECK(net_family("IBext") == NetFamily::Verbs);
  CHECK(net_family("IBext_v8") == NetFamily::Verbs);
  CHECK(net_family("NCCL RDMA Plugin v8") == NetFamily::Verbs);
  CHECK(net_family("UCX") == NetFamily::Verbs);
  CHECK(net_family("UCX-RMA") == NetFamily::Verbs);
  // aws-ofi-nccl, old and new names.
  CHECK(net_family("AWS Libfabric") == NetFamily::Libfabric);
  CHECK(net_family("Libfabric") == NetFamily::Libfabric);
  CHECK(net_family("MyNet") == NetFamily::Unknown);
  CHECK(net_family("") == NetFamily::Unknown);
  CHECK(parse_transport("NET/NCCL RDMA Plugin v8/0/GDRDMA").net_name == "NCCL RDMA Plugin v8");
}
