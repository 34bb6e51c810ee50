#include <doctest/doctest.h>

#include "parsers/warn_classes.h"

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
    CHECK(c.severity == WarnSeverity::Error);
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
  CHECK(classify_warn("Failed to initialize any NET plugin").severity == WarnSeverity::Error);
  CHECK(classify_warn("Bootstrap : no socket interface found").kind == WarnKind::SocketConfig);
  CHECK(classify_warn("something new").kind == WarnKind::Other);
  // ibvwrap.cc's words for a verbs call without libibverbs loaded; GDRCOPY's differ.
  CHECK(classify_warn("lib wrapper not initialized.").group == "libibverbs");
  CHECK(classify_warn("GDRCOPY lib wrapper not initialized.").group != "libibverbs");
}

TEST_CASE("async events: a port coming up is no fault, a port error or a fatal event is") {
  // 2.4-2.19, 2.20-2.22 (device:port before the text), 2.23+ fatal form.
  for (const char* line : {"NET/IB : Got async event : port active", "NET/IB : mlx5_0:1 Got async event : GID table change",
                           "NET/IB : Got async event : client reregistration"}) {
    INFO(line);
    WarnClass c = classify_warn(line);
    CHECK(c.kind == WarnKind::IbAsync);
    CHECK(c.severity == WarnSeverity::Info);
  }
  for (const char* line : {"NET/IB : Got async event : port error", "NET/IB : mlx5_0:1 async fatal event: local catastrophic error"}) {
    INFO(line);
    CHECK(classify_warn(line).severity == WarnSeverity::Error);
  }
}

TEST_CASE("NCCL's own version check names both ranks and decodes their versions") {
  // 2.23+; a 2.8 library reports the older major*1000 code.
  WarnClass c = classify_warn("Mismatched NCCL version detected : rank 3 version 22304 rank 0 version 2803");
  CHECK(c.kind == WarnKind::VersionMismatch);
  REQUIRE(c.mismatch);
  CHECK(c.mismatch->rank_a == 3);
  CHECK(c.mismatch->version_a == "2.23.4");
  CHECK(c.mismatch->rank_b == 0);
  CHECK(c.mismatch->version_b == "2.8.3");
  CHECK_FALSE(classify_warn("Mismatched NCCL version").mismatch);
  CHECK(decode_version_code("21903") == "2.19.3");
  CHECK(decode_version_code("123") == "123");
  CHECK(decode_version_code("12345678") == "12345678");
}

TEST_CASE("two ranks on one GPU, in the words of each NCCL generation") {
  // 2.5-2.29, 2.30.3, 2.30.7
  for (const char* line : {"Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000",
                           "Multiple ranks detected using the same GPU",
                           "Multiple Ranks are using the same GPU/Partition"}) {
    INFO(line);
    WarnClass c = classify_warn(line);
    CHECK(c.kind == WarnKind::DuplicateGpu);
    CHECK(c.severity == WarnSeverity::Error);
    CHECK(c.group == "duplicate-gpu");
  }
  CHECK(classify_warn("Duplicate GPUs in the list").kind == WarnKind::Other);
}
