#include "parsers/framework_lines.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("watchdog timeouts of old and new PyTorch give SeqNum, OpType, timeout and rank") {
  // PyTorch <= 2.1, then 2.2+ with NumelIn/Out and the [rankN]: excepthook prefix.
  FrameworkLine old = parse_framework_line(
      FrameworkKind::WatchdogTimeout,
      "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, "
      "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.");
  REQUIRE(old.watchdog);
  CHECK(old.watchdog->seq == 469508);
  CHECK(old.watchdog->op == "ALLREDUCE");
  CHECK(old.watchdog->timeout_ms == 1800000);
  CHECK(old.watchdog->ran_ms == 1802212);
  CHECK(old.watchdog->rank == 1u);
  CHECK_FALSE(old.launcher_rank);

  FrameworkLine now = parse_framework_line(
      FrameworkKind::WatchdogTimeout,
      "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) ran "
      "for 600020 milliseconds before timing out.");
  REQUIRE(now.watchdog);
  CHECK(now.watchdog->seq == 808);
  CHECK(now.watchdog->ran_ms == 600020);
  CHECK(now.launcher_rank == 1u);
  CHECK(now.text.starts_with("[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught"));

  // The follow-up lines name no WorkNCCL: no timeout to read.
  CHECK_FALSE(parse_framework_line(FrameworkKind::WatchdogTimeout,
                                   "  what():  [PG 1 Rank 7] Process group watchdog thread terminated with exception: "
                                   "[Rank 7] Watchdog caught collective operation timeout")
                  .watchdog);
}

TEST_CASE("NCCL errors that PyTorch raises, in the call and the async form") {
  FrameworkLine in = parse_framework_line(
      FrameworkKind::NcclError,
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, "
      "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6");
  REQUIRE(in.nccl_error);
  CHECK(in.nccl_error->error == "unhandled system error (run with NCCL_DEBUG=INFO for details)");
  CHECK(in.nccl_error->version == "2.18.6");

  FrameworkLine async = parse_framework_line(
      FrameworkKind::NcclError,
      "Collective WorkNCCL(SeqNum=2, OpType=ALLREDUCE, Timeout(ms)=600000) raised the following async exception: "
      "NCCL error: remote process exited or there was a network error");
  REQUIRE(async.nccl_error);
  CHECK(async.nccl_error->error == "remote process exited or there was a network error");
  CHECK(async.nccl_error->version.empty());

  // A grep pattern or quoted code that names "NCCL error" is no error.
  CHECK_FALSE(parse_framework_line(FrameworkKind::NcclError, "grep -n 'NCCL error' train.log").nccl_error);
}

TEST_CASE("Last error: the message on the same line, or the next line announced") {
  FrameworkLine same = parse_framework_line(
      FrameworkKind::LastError, "[rank7]: Last error: socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
  CHECK_FALSE(same.opens_last_error);
  CHECK(same.text == "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
  CHECK(same.launcher_rank == 7u);
  CHECK(same.cls.kind == WarnKind::Socket);
  CHECK(same.cls.peer == "192.168.19.14");

  FrameworkLine opener = parse_framework_line(FrameworkKind::LastError, "[rank7]: Last error:  ");
  CHECK(opener.opens_last_error);
  CHECK(opener.text.empty());

  // The next line, whatever it holds, is the message.
  FrameworkLine body = parse_framework_line(FrameworkKind::LastError, "Cuda failure 999 'unknown error'");
  CHECK_FALSE(body.opens_last_error);
  CHECK(body.text == "Cuda failure 999 'unknown error'");
  CHECK(body.cls.group == "cuda/unknown error");
}

TEST_CASE("framework lines keep their evidence clean, their text valid and bounded") {
  FrameworkLine f = parse_framework_line(FrameworkKind::LastError,
                                         "\x1b[31mLast error: bad \xff byte" + std::string(5000, 'x'));
  CHECK(f.clean.starts_with("Last error: bad \xff byte"));
  CHECK(f.text.starts_with("bad \xEF\xBF\xBD byte"));
  CHECK(f.text.size() == kMaxFrameworkText + 2);  // the one bad byte became three
  FrameworkLine pdsh = parse_framework_line(FrameworkKind::NcclError, "gpu07: NCCL error in: x.cpp:1, internal error");
  CHECK(pdsh.launcher_host == "gpu07");
  REQUIRE(pdsh.nccl_error);
  CHECK(pdsh.nccl_error->error == "internal error");
}
