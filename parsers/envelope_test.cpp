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
  e = strip_envelope("gpu07: Test NCCL failure common.cu:1005 'unhandled system error / '");
  CHECK(e.launcher == Launcher::None);
  CHECK(e.payload.starts_with("gpu07: Test"));
  e = strip_envelope("WARNING: something else");
  CHECK(e.payload == "WARNING: something else");
  CHECK(e.launcher == Launcher::None);
}

TEST_CASE("a host prefix before another tool's output, but not topo -m's NIC Legend") {
  std::string_view host;
  CHECK(output_host_prefix("gpu07: | NVIDIA-SMI 535.104.05", host) == 7);
  CHECK(host == "gpu07");
  host = {};
  CHECK(output_host_prefix("NIC0: mlx5_0", host) == 0);
  CHECK(output_host_prefix("NIC11: mlx5_bond_0", host) == 0);
  CHECK(host.empty());
  CHECK(output_host_prefix("NICE1: | NVIDIA-SMI", host) == 7);
  // nccl-tests' own "host: Test NCCL failure" is its output, not a prefix.
  CHECK(output_host_prefix("gpu07: Test NCCL failure common.cu:1005 'unhandled system error / '", host) == 0);
}

TEST_CASE("a Markdown fence or code span glued to the line, and a table pasted as comments") {
  auto e = strip_envelope("```gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  e = strip_envelope("`gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  e = strip_envelope("`gpu01:2771:2771 [0] NCCL INFO Using network IB`");
  CHECK(e.payload == kLine);
  CHECK(e.prefix_length == 1);
  e = strip_envelope("> ```gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(strip_envelope("# | NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |")
            .payload.starts_with("| NVIDIA-SMI"));
  CHECK(strip_envelope("# +---------------------------------------------------------------------------------------+")
            .payload.starts_with("+---"));
  // nccl-tests' own comment lines stay as they are.
  CHECK(strip_envelope("#  Rank  0 Group  0 Pid  40210 on ws-l40s-01 device  0 [0x18] NVIDIA L40S").payload.starts_with("#  Rank"));
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

TEST_CASE("Ray's deduplication count at the end of a line is dropped, under Ray only") {
  auto e = strip_envelope("(WorkerDict pid=3569860) gpu01:2771:2771 [0] NCCL INFO Using network IB [repeated 16x across cluster]");
  CHECK(e.payload == kLine);
  e = strip_envelope("> > (WorkerDict pid=3569860) gpu01:2771:2771 [0] NCCL INFO Using network IB [repeated 3x across cluster]");
  CHECK(e.payload == kLine);
  e = strip_envelope("(WorkerDict pid=1) gpu01:2771:2771 [0] NCCL INFO Using network IB [repeated x across cluster]");
  CHECK(e.payload.ends_with("[repeated x across cluster]"));
  e = strip_envelope("gpu01:2771:2771 [0] NCCL INFO Using network IB [repeated 16x across cluster]");
  CHECK(e.payload.ends_with("[repeated 16x across cluster]"));
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

TEST_CASE("what pastes put in front: quotes, notebook exports, indentation") {
  auto e = strip_envelope("> gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  e = strip_envelope(">> > [0] NCCL INFO Using network IB");
  CHECK(e.payload == "[0] NCCL INFO Using network IB");
  e = strip_envelope("# MAGIC [0] NCCL INFO Using network IB");
  CHECK(e.payload == "[0] NCCL INFO Using network IB");
  // A Markdown source escapes a `#` that starts a line; a lone backslash stays.
  e = strip_envelope("\\# gpu    pwr  gtemp");
  CHECK(e.payload == "# gpu    pwr  gtemp");
  e = strip_envelope("> \\# Idx      W      C");
  CHECK(e.payload == "# Idx      W      C");
  CHECK(strip_envelope("\\n is a newline").payload == "\\n is a newline");
  e = strip_envelope("\t    gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(e.payload == kLine);
  CHECK(e.launcher == Launcher::None);
  // Only the notebook marker: other `#` lines (nccl-tests output) stay whole.
  e = strip_envelope("#  Rank  0 Group  0 Pid 1789224 on gpu01 device  0 [0000:18:00] NVIDIA H100");
  CHECK(e.prefix_length == 0);
}

TEST_CASE("the device of a line without host:pid:tid is no Hydra rank") {
  auto e = strip_envelope("[0] NCCL INFO Using network IB");
  CHECK(e.payload == "[0] NCCL INFO Using network IB");
  CHECK(e.launcher == Launcher::None);
  e = strip_envelope("[3] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.0.11<36945> failed");
  CHECK(e.prefix_length == 0);
  e = strip_envelope("[12] [0] NCCL INFO Using network IB");
  CHECK(e.payload == "[0] NCCL INFO Using network IB");
  CHECK(e.launcher == Launcher::Hydra);
  CHECK(e.launcher_rank == 12u);
  // The 2.19.3 banner has no device: `[0] ` before it is Hydra's.
  e = strip_envelope("[0] NCCL version 2.19.3+cuda12.3");
  CHECK(e.payload == "NCCL version 2.19.3+cuda12.3");
}

TEST_CASE("a launcher's rank and host before a line without host:pid:tid") {
  auto e = strip_envelope(" 3: [1] NCCL INFO Using network IB");
  CHECK(e.payload == "[1] NCCL INFO Using network IB");
  CHECK(e.launcher_rank == 3u);
  CHECK(e.rank_from == Launcher::Slurm);
  e = strip_envelope("[1,5]<stdout>:NCCL INFO Using network IB");
  CHECK(e.payload == "NCCL INFO Using network IB");
  CHECK(e.rank_from == Launcher::OpenMpi);
  e = strip_envelope("gpu07: [0] NCCL INFO Using network IB");
  CHECK(e.payload == "[0] NCCL INFO Using network IB");
  CHECK(e.launcher_host == "gpu07");
  // The rank stays with the prefix that gave it, whatever comes inside.
  e = strip_envelope("[1,3]<stdout>:gpu07: [2] NCCL INFO Using network IB");
  CHECK(e.launcher == Launcher::Pdsh);
  CHECK(e.rank_from == Launcher::OpenMpi);
  CHECK(e.launcher_rank == 3u);
  CHECK(e.launcher_host == "gpu07");
}
