#include <doctest/doctest.h>

#include "checks/health/warn_classes.h"

using namespace nd;

TEST_CASE("completion errors of every generation decode their status") {
  // 2.4-2.9, 2.10-2.17, 2.20-2.21, 2.22-2.28.3, 2.30.7
  const char* lines[] = {
      "NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129",
      "NET/IB : Got completion from peer 10.1.0.8<49513> with error 12, opcode 0, len 0, vendor err 129",
      "NET/IB : Got completion from peer 10.1.0.8<49513> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.1.0.7 remoteGids::ffff:10.1.0.8",
      "NET/IB: Got completion from peer 10.1.0.8<49513> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_3",
      "NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_3",
  };
  for (const char* line : lines) {
    INFO(line);
    WarnClass c = classify_warn(line);
    CHECK(c.kind == WarnKind::IbCompletion);
    CHECK(c.status == 12);
    CHECK(c.severity == Severity::Error);
    CHECK(c.explanation.find("status 12 IBV_WC_RETRY_EXC_ERR: transport retries exhausted") == 0);
    CHECK(c.explanation.find("vendor_err 129 (0x81: retry counter exceeded)") != std::string::npos);
  }
  CHECK(classify_warn(lines[1]).peer == "10.1.0.8");
  CHECK(classify_warn(lines[0]).peer.empty());
}

TEST_CASE("flush errors are consequences; unknown statuses print their number") {
  WarnClass c = classify_warn("NET/IB : Got completion from peer 10.1.0.8<1> with error 5, opcode 0, len 0, vendor err 249");
  CHECK(c.consequence);
  CHECK(ibv_wc_status_name(5) == "IBV_WC_WR_FLUSH_ERR");
  CHECK(ibv_wc_status_name(99) == "unknown (99)");
}

TEST_CASE("verbs call failures explain the errno") {
  WarnClass c = classify_warn(
      "Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, "
      "local GID index 3, local GID ::ffff:10.1.0.7, remote GID ::ffff:10.1.0.8");
  CHECK(c.kind == WarnKind::VerbsCall);
  CHECK(c.explanation.starts_with("ibv_modify_qp failed with 110 (ETIMEDOUT): ETIMEDOUT: the peer QP never answered"));
  c = classify_warn("Call to ibv_reg_mr failed with error Cannot allocate memory errno 12");
  CHECK(c.explanation.find("locked-memory limit") != std::string::npos);
  c = classify_warn("Call to ibv_reg_mr failed");
  CHECK(c.explanation.find("ulimit -l") != std::string::npos);
}

TEST_CASE("sockets, CUDA and plugins") {
  WarnClass c = classify_warn("socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
  CHECK(c.kind == WarnKind::Socket);
  CHECK(c.peer == "192.168.19.14");
  CHECK(classify_warn("Net : Connect to 10.0.0.2<43123> failed : Connection refused").explanation.find("nothing listens") !=
        std::string::npos);
  CHECK(classify_warn("socketProgress: Connection closed by remote peer gpu2<37120>").peer == "gpu2");
  CHECK(classify_warn("Cuda failure 'out of memory'").kind == WarnKind::Cuda);
  CHECK(classify_warn("Cuda failure 2 'out of memory'").group == "cuda/out of memory");
  CHECK(classify_warn("NET/OFI Failed to initialize sendrecv protocol").kind == WarnKind::NetPlugin);
  CHECK(classify_warn("Failed to initialize any NET plugin").severity == Severity::Error);
  CHECK(classify_warn("Bootstrap : no socket interface found").kind == WarnKind::SocketConfig);
  CHECK(classify_warn("something new").kind == WarnKind::Other);
}

TEST_CASE("async events: a port coming up is no fault, a port error or a fatal event is") {
  // 2.4-2.19, 2.20-2.22 (device:port before the text), 2.23+ fatal form.
  for (const char* line : {"NET/IB : Got async event : port active", "NET/IB : mlx5_0:1 Got async event : GID table change",
                           "NET/IB : Got async event : client reregistration"}) {
    INFO(line);
    WarnClass c = classify_warn(line);
    CHECK(c.kind == WarnKind::IbAsync);
    CHECK(c.severity == Severity::Info);
  }
  for (const char* line : {"NET/IB : Got async event : port error", "NET/IB : mlx5_0:1 async fatal event: local catastrophic error"}) {
    INFO(line);
    CHECK(classify_warn(line).severity == Severity::Error);
  }
}
