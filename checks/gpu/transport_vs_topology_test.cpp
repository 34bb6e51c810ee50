#include <doctest/doctest.h>

#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

// `nvidia-smi topo -m` of a 4-GPU host as pdsh prints it ("host: " before
// each line; an empty host prints it bare): GPUs 0/1 and 2/3 are NVLink
// pairs, 0 and 2 share a PCIe switch, mlx5_0 sits by GPUs 0-1 and mlx5_1
// by GPUs 2-3.
std::vector<std::string> topo(std::string_view host) {
  std::string prefix = host.empty() ? std::string() : fmt::format("{}: ", host);
  std::vector<std::string> rows{
      "\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID",
      "GPU0\t X \tNV12\tPXB\tSYS\tPIX\tSYS\t0-15,32-47\t0\t\tN/A",
      "GPU1\tNV12\t X \tSYS\tSYS\tPIX\tSYS\t0-15,32-47\t0\t\tN/A",
      "GPU2\tPXB\tSYS\t X \tNV12\tSYS\tPIX\t16-31,48-63\t1\t\tN/A",
      "GPU3\tSYS\tSYS\tNV12\t X \tSYS\tPIX\t16-31,48-63\t1\t\tN/A",
      "NIC0\tPIX\tPIX\tSYS\tSYS\t X \tSYS",
      "NIC1\tSYS\tSYS\tPIX\tPIX\tSYS\t X ",
      "",
      "NIC Legend:",
      "",
      "  NIC0: mlx5_0",
      "  NIC1: mlx5_1",
  };
  for (auto& r : rows) r = prefix + r;
  return rows;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Two ranks of one host on GPUs `a` and `b`, connected both ways on channel 0 `via`.
std::vector<std::string> pair_log(std::string_view host, int a, int b, std::string_view via,
                                  std::string_view comm = "abc") {
  return {
      fmt::format("{}:100:100 [0] NCCL INFO Channel 00/0 : 0[{}] -> 1[{}] via {}", host, a, b, via),
      fmt::format("{}:101:101 [1] NCCL INFO Channel 00/0 : 1[{}] -> 0[{}] via {}", host, b, a, via),
      fmt::format("{}:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev {} busId {}000 commId 0x{} - "
                  "Init COMPLETE",
                  host, a, a + 1, comm),
      fmt::format("{}:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 nvmlDev {} busId {}000 commId 0x{} - "
                  "Init COMPLETE",
                  host, b, b + 1, comm),
  };
}

}  // namespace

TEST_CASE("transport-vs-topology: NVLink peers that NCCL connected through SHM, with the matrix as evidence") {
  auto m = model_from_lines(concat(topo("gpu07"), pair_log("gpu07", 0, 1, "SHM/direct/direct")));
  auto found = run_rule("transport-vs-topology", m);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: gpu07: GPU 0 and GPU 1 are NVLink (NV12) peers in nvidia-smi topo -m, but NCCL connected them "
            "through SHM: host memory instead of NVLink; P2P was turned off or refused (NCCL_P2P_DISABLE or "
            "NCCL_P2P_LEVEL set, or ranks in containers without a shared IPC namespace: run them with --ipc=host)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu07"});
  CHECK(found[0].channels == std::vector<uint32_t>{0});
  CHECK(found[0].related == std::vector<std::string>{"ND3002"});
  REQUIRE(found[0].evidence.size() == 3);
  CHECK(found[0].evidence[0].line == 13);
  CHECK(found[0].evidence[2].line == 1);
}

TEST_CASE("transport-vs-topology: P2P between NVLink peers, or SHM across the sockets, says nothing") {
  CHECK(run_rule("transport-vs-topology", model_from_lines(concat(topo("gpu07"), pair_log("gpu07", 0, 1, "P2P/CUMEM"))))
            .empty());
  CHECK(run_rule("transport-vs-topology",
                 model_from_lines(concat(topo("gpu07"), pair_log("gpu07", 1, 3, "SHM/direct/direct"))))
            .empty());
}

TEST_CASE("transport-vs-topology: PCIe-switch peers through SHM warn, but not on GeForce boards") {
  auto lines = concat(topo("gpu07"), pair_log("gpu07", 0, 2, "SHM/direct/direct"));
  CHECK(messages(run_rule("transport-vs-topology", model_from_lines(lines))) ==
        std::vector<std::string>{
            "warning: gpu07: GPU 0 and GPU 2 are PXB peers in nvidia-smi topo -m, but NCCL connected them through "
            "SHM: host memory instead of P2P under the switch; P2P was turned off or refused (NCCL_P2P_DISABLE or "
            "NCCL_P2P_LEVEL set, ACS redirect on the switch, a VM without peer access, or containers without a "
            "shared IPC namespace)"});
  lines.push_back("gpu07: $ nvidia-smi --query-gpu=index,name --format=csv,noheader");
  lines.push_back("gpu07: 0, NVIDIA GeForce RTX 4090");
  CHECK(messages(run_rule("transport-vs-topology", model_from_lines(lines))) ==
        std::vector<std::string>{
            "info: gpu07: GPU 0 and GPU 2 are PXB peers in nvidia-smi topo -m, and NCCL connected them through SHM: "
            "GeForce and TITAN boards have no peer access over PCIe, so this is the only path they have"});
}

TEST_CASE("transport-vs-topology: a bare matrix stands for a log without host names; one of another host does not") {
  std::vector<std::string> log = {
      "[0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
      "[1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via SHM/direct/direct",
      "[0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "[1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE",
  };
  auto found = run_rule("transport-vs-topology", model_from_lines(concat(topo(""), log)));
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.starts_with("GPU 0 and GPU 1 are NVLink (NV12) peers"));
  CHECK(found[0].hosts.empty());
  CHECK(run_rule("transport-vs-topology",
                 model_from_lines(concat(topo("gpu08"), pair_log("gpu07", 0, 1, "SHM/direct/direct"))))
            .empty());
}

TEST_CASE("transport-vs-topology: the same finding on every host of a bare matrix is one finding") {
  auto lines = concat(topo(""), pair_log("gpu07", 0, 1, "SHM/direct/direct"));
  for (std::string host : {"gpu08", "gpu09", "gpu10", "gpu11"}) {
    lines = concat(lines, pair_log(host, 0, 1, "SHM/direct/direct", host.substr(3)));
  }
  auto found = run_rule("transport-vs-topology", model_from_lines(lines));
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.starts_with("gpu07, gpu08, gpu09 and 2 more hosts: GPU 0 and GPU 1 are NVLink"));
  CHECK(found[0].hosts.size() == 5);
}

TEST_CASE("transport-vs-topology: GPUDirect RDMA off for a GPU whose NIC is across the sockets") {
  auto lines = concat(topo("gpu07"), {
      "gpu07:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.7<0>",
      "gpu07:100:200 [0] NCCL INFO Channel 00/0 : 0[2] -> 1[2] [send] via NET/IB/0",
      "gpu08:200:300 [0] NCCL INFO Channel 00/0 : 0[2] -> 1[2] [receive] via NET/IB/1",
      "gpu07:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 2 - Init COMPLETE",
      "gpu08:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 2 - Init COMPLETE",
  });
  auto found = run_rule("transport-vs-topology", model_from_lines(lines));
  CHECK(messages(found) ==
        std::vector<std::string>{
            "info: gpu07: GPU 2 reaches mlx5_0, the NIC it used, only across the CPU interconnect (SYS) in nvidia-smi topo -m: "
            "NCCL uses GPUDirect RDMA only up to PXB by default (NCCL_NET_GDR_LEVEL), so this inter-node traffic is "
            "staged in host memory; place each rank on a GPU under the same PCIe switch as its NIC (NCCL_IB_HCA), or "
            "where the platform forwards peer traffic well, try NCCL_NET_GDR_LEVEL=SYS and measure"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].related == std::vector<std::string>{"ND3004"});
  // With /GDRDMA on the link, the distance cost nothing.
  lines[lines.size() - 3] += "/GDRDMA";
  CHECK(run_rule("transport-vs-topology", model_from_lines(lines)).empty());
}

TEST_CASE("transport-vs-topology: a rank Slurm bound outside its GPU's CPU Affinity") {
  auto lines = concat(topo("gpu07"), pair_log("gpu07", 0, 1, "P2P/CUMEM"));
  lines.push_back("cpu-bind=MASK - gpu07, task  0  0 [100]: mask 0xff0000 set");
  lines.push_back("cpu-bind=MASK - gpu07, task  1  1 [101]: mask 0x2 set");
  auto found = run_rule("transport-vs-topology", model_from_lines(lines));
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: gpu07: rank 0 of communicator 0xabc (pid 100) is bound to CPUs 16-23, none of them in its GPU "
            "0's CPU Affinity in nvidia-smi topo -m (0-15,32-47): host memory and proxy threads sit on the far "
            "socket; bind each rank to its GPU's cores (srun --cpu-bind=... with --gpu-bind=closest, or a binding "
            "map per local rank)"});
}
