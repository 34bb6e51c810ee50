#include "src/report/summary_renderer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.18.3: two hosts, one GPU each, IB with GDR both ways.
JobModel two_hosts() {
  return model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ib0:10.1.0.10<0>",
      "gpuB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ib0:10.1.0.11<0>",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init START",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA",
      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0/GDRDMA",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init COMPLETE",
  });
}
}  // namespace

TEST_CASE("summary helpers: busId as BDF, folded host lists") {
  CHECK(bdf(0x18000) == "0000:18:00.0");
  CHECK(bdf(0x1a1f1ULL | (1ULL << 20)) == "0001:1a:1f.1");
  CHECK(bdf(0x1a1f1) == "0000:1a:1f.1");
  CHECK(host_list({"a", "b"}) == "a, b");
  CHECK(host_list({"a", "b", "c", "d", "e"}) == "a, b, c, ... (5 hosts)");
}

TEST_CASE("summary text: matrix, NICs and rail map of a two-host job") {
  std::string text = render_summary_text(summarize(two_hosts()), {});
  CHECK(text.find("Job: 2 ranks on 2 hosts, 1 communicator\n") == 0);
  CHECK(text.find("  gpuA                         1     0  0 18:00.0\n") != std::string::npos);
  CHECK(text.find("  IB       [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE\n           on gpuA, gpuB\n") != std::string::npos);
  CHECK(text.find("  gpuA [0]    .       IB+GDR\n") != std::string::npos);
  CHECK(text.find("  gpuA, gpuB\n    GPU 0   -> mlx5_0     NET/IB/0\n    idle NICs: mlx5_1\n") != std::string::npos);
}

TEST_CASE("summary text: who printed each version, out of how many processes") {
  JobSummary s;
  s.processes = 16;
  s.nccl_versions = {Printed{"2.18.3", 0, true}};
  s.cuda_versions = {Printed{"12.2", 3, true}};
  s.driver_versions = {DriverVersion{12040, Printed{"12.4", 16, false}}};
  s.networks = {Printed{"IB", 1, false}};
  std::string text = render_summary_text(s, {});
  CHECK(text.find("NCCL: 2.18.3 (banner without host:pid)\n"
                  "CUDA (NCCL build): 12.2 (3 of 16 processes, and a banner without host:pid)\n"
                  "CUDA driver: 12.4 (16 of 16 processes)\n"
                  "Network (Using network): IB (1 of 16 processes)\n") != std::string::npos);
}

TEST_CASE("summary json: schema, NIC link layers and rails") {
  auto j = nlohmann::json::parse(render_summary_json(summarize(two_hosts()), {"cannot open 'x': No such file or directory"}));
  CHECK(j["schema"] == "nccl-doctor.summary/1");
  CHECK(j["input_errors"].size() == 1);
  REQUIRE(j["hosts"].size() == 2);
  CHECK(j["hosts"][0]["name"] == "gpuA");
  CHECK(j["hosts"][1]["gpus"][0]["bus_id"] == "0000:1b:00.0");
  CHECK(j["hosts"][0]["nets"][0]["devices"][1]["link_layer"] == "RoCE");
  CHECK(j["communicators"][0]["id"] == "0x5");
  CHECK(j["communicators"][0]["nodes"] == 2);
  REQUIRE(j["transport_matrix"].size() == 2);
  CHECK(j["transport_matrix"][0]["transports"][0]["transport"] == "NET/IB+GDR");
  CHECK(j["rails"][0]["uses"][0]["nic"] == "mlx5_0");
  CHECK(j["rails"][0]["whole"] == true);
  CHECK(j["rails"][0]["idle_nics"][0] == "mlx5_1");
  CHECK(j["processes"] == 2);
  CHECK(j["communicators"][0]["connected_channels"] == 1);
}

TEST_CASE("summary of many hosts folds identical rows and shows the odd one out") {
  std::vector<std::string> lines;
  const int hosts = 20;
  for (int h = 0; h < hosts; ++h) {
    lines.push_back(fmt::format("n{:02d}:{}:{} [0] NCCL INFO comm 0x{:x} rank {} nranks {} cudaDev 0 nvmlDev 0 busId 18000 "
                                "commId 0x5 - Init START", h, 100 + h, 100 + h, h + 1, h, hosts));
  }
  for (int h = 0; h < hosts; ++h) {
    int next = (h + 1) % hosts;
    std::string net = h == 7 ? "Socket/0" : "IB/0/GDRDMA";
    lines.push_back(fmt::format("n{:02d}:{}:{} [0] NCCL INFO Channel 00/0 : {}[0] -> {}[0] [send] via NET/{}", h, 100 + h,
                                100 + h, h, next, net));
  }
  auto m = model_from_lines(lines);
  std::string text = render_summary_text(summarize(m), {});
  CHECK(text.find("  20 hosts; hosts that use the same transports are folded\n") != std::string::npos);
  CHECK(text.find("  n00, n01, n02, ... (19 hosts)\n"
                  "      inside: -              to other hosts: NET/IB+GDR\n"
                  "  odd ones out:\n"
                  "  n07\n"
                  "      inside: -              to other hosts: NET/Socket\n") != std::string::npos);
}
