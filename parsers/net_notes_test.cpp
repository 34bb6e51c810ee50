#include "parsers/net_notes.h"

#include <doctest/doctest.h>

#include "parsers/line_classifier.h"

using namespace nd;

namespace {

// The note an INFO message classifies to, through the line classifier.
std::optional<NetNoteEvent> info(std::string_view msg) {
  Event ev = classify_message(msg);
  if (auto* n = std::get_if<NetNoteEvent>(&ev)) return *n;
  return std::nullopt;
}

}  // namespace

TEST_CASE("net notes: no external plugin, in every generation") {
  // 2.4.8
  auto n = info("NET/Plugin : No plugin found (libnccl-net.so).");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(n->name == "libnccl-net.so");
  // 2.6-2.18
  n = info("NET/Plugin : No plugin found (libnccl-net.so), using internal implementation");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(n->name == "libnccl-net.so");
  // 2.18.3 prints both of these
  n = info("NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(n->name == "libnccl-net.so");
  n = info("NET/Plugin : No plugin found, using internal implementation");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(n->name == "");
  // 2.19-2.20
  n = info("NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file or directory No plugin found (libnccl-net.so), using internal implementation");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(n->name == "libnccl-net.so");
  // 2.21
  n = info("NET/Plugin: No plugin found (libnccl-net.so)");
  REQUIRE(n);
  CHECK(n->name == "libnccl-net.so");
  CHECK(info("NET/Plugin: Using internal network plugin.")->note == NetNote::PluginNotFound);
  // 2.22-2.26, 2.27, 2.28+
  n = info("NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(n->name == "libnccl-net.so");
  CHECK(info("NET/Plugin: Could not find: libnccl-net.so. ")->name == "libnccl-net.so");
  CHECK(info("NET/Plugin: Could not find: libnccl-net-ofi.so libnccl-net.so")->name == "libnccl-net-ofi.so libnccl-net.so");
}

TEST_CASE("net notes: a plugin that is there but does not load") {
  // 2.22+ prints dlerror() as it is when the error is not the plugin's own absence.
  auto n = info("NET/Plugin: libfabric.so.1: cannot open shared object file: No such file or directory");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginLoadFailed);
  CHECK(n->name == "libfabric.so.1: cannot open shared object file: No such file or directory");
  // 2.12 (errno other than ENOENT), 2.21
  n = info("NET/Plugin : Plugin load returned 0 : /opt/amazon/ofi-nccl/lib/libnccl-net.so: undefined symbol: fi_getinfo.");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginLoadFailed);
  CHECK(n->name == "/opt/amazon/ofi-nccl/lib/libnccl-net.so: undefined symbol: fi_getinfo");
  n = info("NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginNotFound);
  CHECK(info("NET/Plugin: Failed to find ncclNetPlugin symbol (>= v5). ncclNetPlugin symbols v4 and lower are not supported.")->note ==
        NetNote::PluginLoadFailed);
  // Trying the next version's symbol is not a failure.
  CHECK_FALSE(info("NET/Plugin: Failed to find ncclNetPlugin_v8 symbol."));
  CHECK_FALSE(info("NET/Plugin: Plugin name set by env to libnccl-net-ofi.so"));
  CHECK_FALSE(info("NET/Plugin: Loaded collnet plugin SHARP (v6)"));
  CHECK_FALSE(info("NET/Plugin: Closing net plugin 'IBext_v8'"));
}

TEST_CASE("net notes: loaded, initialized, failed, assigned (2.14+, 2.27+ plugin manager)") {
  // HPC-X: the RDMA plugin's name before its init renames it IBext_v8.
  auto n = info("NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginLoaded);
  CHECK(n->name == "NCCL RDMA Plugin v8");
  CHECK(n->version == 8);
  n = info("NET/Plugin: Loaded net plugin Libfabric (v10)");
  REQUIRE(n);
  CHECK(n->name == "Libfabric");
  CHECK(n->version == 10);
  // 2.27.3 names the library, 2.28+ says "network plugin".
  n = info("Successfully loaded external plugin libnccl-net.so");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginLoaded);
  CHECK(n->name == "libnccl-net.so");
  CHECK(info("Successfully loaded external network plugin /opt/amazon/ofi-nccl/lib/libnccl-net.so")->name ==
        "/opt/amazon/ofi-nccl/lib/libnccl-net.so");
  CHECK_FALSE(info("Successfully loaded external tuner plugin libnccl-tuner.so"));
  n = info("Initialized NET plugin IBext_v8");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginInitialized);
  CHECK(n->name == "IBext_v8");
  n = info("Failed to initialize NET plugin Libfabric");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginInitFailed);
  CHECK(n->name == "Libfabric");
  n = info("Assigned NET plugin IB to comm");
  REQUIRE(n);
  CHECK(n->note == NetNote::PluginAssigned);
  CHECK(n->name == "IB");
  // Other messages of the same first letters keep their own meaning.
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message("Failed to initialize any NET plugin")));
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message("Init timings: rank 0 nranks 16 total 0.93 (kernels 0.12, alloc 0.07)")));
}

TEST_CASE("net notes: why IB did not start, at INFO (current NCCL) or WARN (old)") {
  // 2.11-2.29 INFO; 2.4-2.10 printed it as a WARN.
  auto n = info("Failed to open libibverbs.so[.1]");
  REQUIRE(n);
  CHECK(n->note == NetNote::VerbsMissing);
  CHECK(parse_net_note("Failed to open libibverbs.so[.1]", true)->note == NetNote::VerbsMissing);
  // 2.30.3+ names each library it tried; the dev symlink alone missing is normal.
  REQUIRE(info("Count not open libibverbs.so.1"));
  CHECK(info("Count not open libibverbs.so.1")->note == NetNote::VerbsMissing);
  CHECK_FALSE(info("Count not open libibverbs.so"));
  n = info("NET/IB : No device found.");
  REQUIRE(n);
  CHECK(n->note == NetNote::IbNoDevice);
  CHECK(parse_net_note("NET/IB : No IP interface found.", true)->note == NetNote::IbNoInterface);
  // The device list is still a NetUsingEvent.
  CHECK(std::holds_alternative<NetUsingEvent>(classify_message("NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.4.19<0>")));
}

TEST_CASE("net notes: aws-ofi-nccl's provider line, old and new") {
  auto n = info("NET/OFI Selected Provider is efa (found 4 nics)");
  REQUIRE(n);
  CHECK(n->note == NetNote::OfiProvider);
  CHECK(n->name == "efa");
  CHECK(info("NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)")->name == "efa");
  CHECK(info("NET/OFI Selected provider is cxi, fabric is cxi (found 4 nics)")->name == "cxi");
  CHECK_FALSE(info("NET/OFI Using Libfabric version 1.22"));
  // Its WARNs are the only sign, before 2.28, that it failed to initialise.
  auto w = parse_net_note("NET/OFI Failed to initialize sendrecv protocol", true);
  REQUIRE(w);
  CHECK(w->note == NetNote::PluginWarn);
  CHECK(w->name == "NET/OFI Failed to initialize sendrecv protocol");
  CHECK(parse_net_note("NET/Plugin : Plugin load returned 0 : libnccl-net.so: undefined symbol: x", true)->note ==
        NetNote::PluginWarn);
}

TEST_CASE("net notes: WARNs that show IB carrying traffic") {
  // 2.22-2.28.3
  auto n = parse_net_note(
      "NET/IB: Got completion from peer 10.1.0.8<49513> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_0", true);
  REQUIRE(n);
  CHECK(n->note == NetNote::IbTraffic);
  CHECK(n->status == 12);
  // 2.4-2.9, 2.28.7+
  CHECK(parse_net_note("NET/IB : Got completion with error 12, opcode 1, len 32768, vendor err 129", true)->status == 12);
  CHECK(parse_net_note("NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_RETRY_EXC_ERR(12) "
                       "opcode=IBV_WC_SEND(0) reqSize=0 vendor_err=129 req_type=Send hca mlx5_0",
                       true)
            ->status == 12);
  // 2.24+ modify_qp and the 2.19+ errno form.
  n = parse_net_note("Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, "
                     "next state RTR, local GID index 3, local GID ::ffff:10.1.0.7, remote GID ::ffff:10.2.0.8",
                     true);
  REQUIRE(n);
  CHECK(n->call == "ibv_modify_qp");
  CHECK(n->status == 110);
  n = parse_net_note("Call to ibv_reg_mr failed with error Cannot allocate memory errno 12", true);
  REQUIRE(n);
  CHECK(n->call == "ibv_reg_mr");
  CHECK(n->status == 12);
  CHECK(parse_net_note("Call to ibv_modify_qp failed with error Connection timed out", true)->status == 110);
  CHECK(parse_net_note("NET/IB : mlx5_0:1 async fatal event: local catastrophic error", true)->note == NetNote::IbTraffic);
  // Discovery failing and INFO lines are not traffic.
  CHECK_FALSE(parse_net_note("Call to ibv_open_device failed", true));
  CHECK_FALSE(parse_net_note("NET/IB : Unable to open device mlx5_2", true));
  CHECK_FALSE(parse_net_note("NET/IB : Got completion with error 12, opcode 1, len 32768, vendor err 129", false));
  CHECK_FALSE(parse_net_note("Cuda failure 'out of memory'", true));
}
