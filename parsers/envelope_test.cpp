#include "parsers/envelope.h"

#include <doctest/doctest.h>

using namespace nd;

namespace {
constexpr std::string_view kLine = "gpu01:2771:2771 [0] NCCL INFO Using network IB";
}

TEST_CASE("Open MPI 4 tag-output, with and without ctime") {
  auto e = strip_envelope("[1,3]<stdout>:gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher == Launcher::OpenMpi);
  CHECK(e.launcher_rank == 3u);
  e = strip_envelope("Thu May  7 10:39:20 2020[1,1]<stdout>:gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher_rank == 1u);
}

TEST_CASE("Open MPI 5 tag with timestamp, tag-detailed and fullname") {
  auto e = strip_envelope("[Thu May  7 10:39:20 2020][1,0]<stdout>: gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher_rank == 0u);
  e = strip_envelope("[1,2][gpu01:4242]<stderr>: gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher_rank == 2u);
  e = strip_envelope("[prterun-f5n18-100629@1,5]<stdout>: gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher_rank == 5u);
}

TEST_CASE("srun --label pads the task id with spaces") {
  auto e = strip_envelope(" 7: gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher == Launcher::Slurm);
  CHECK(e.launcher_rank == 7u);
  e = strip_envelope("P1 12: gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher_rank == 12u);
}

TEST_CASE("Hydra, torchrun and PyTorch rank prefixes") {
  auto e = strip_envelope("[12] gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher == Launcher::Hydra);
  e = strip_envelope("[default3]:gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher == Launcher::Torchrun);
  CHECK(e.launcher_rank == 3u);
  e = strip_envelope("[rank7]: gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher_rank == 7u);
}

TEST_CASE("pdsh host prefix only before NCCL text") {
  auto e = strip_envelope("104.171.201.172: lambda-scalar03:148966:148966 [0] NCCL INFO Using network Socket");
  CHECK(e.payload == "lambda-scalar03:148966:148966 [0] NCCL INFO Using network Socket");
  CHECK(e.launcher_host == "104.171.201.172");
  e = strip_envelope("WARNING: something else");
  CHECK(e.payload == "WARNING: something else");
  CHECK(e.launcher == Launcher::None);
}

TEST_CASE("Kubernetes CRI and kubectl timestamps, stacked under Ray") {
  auto e = strip_envelope("2016-10-06T00:17:09.669794202Z stdout F gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  e = strip_envelope("2020-01-26T03:17:29.346494690+00:00 stderr P gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  e = strip_envelope("2025-10-03T20:49:10.479Z (EngineCore_DP0 pid=742) (RayWorkerWrapper pid=927) gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher == Launcher::Ray);
}

TEST_CASE("control bytes are removed before anything else") {
  std::string scratch;
  CHECK(strip_control("plain", scratch) == "plain");
  CHECK(strip_control("\x1b[0;32mgpu01\x1b[0m", scratch) == "gpu01");
  CHECK(strip_control(std::string_view("a\0b", 3), scratch) == "ab");
  CHECK(strip_control("\x1b]0;title\x07text", scratch) == "text");
  CHECK(strip_control("\x1b[", scratch) == "");
}

TEST_CASE("a line that is only a prefix leaves an empty payload") {
  auto e = strip_envelope("[1,0]<stdout>:");
  CHECK(e.payload.empty());
  CHECK(e.prefix_length == 14);
}
