#include "src/report/job_summary.h"

#include <doctest/doctest.h>

#include "src/model/model_fixture.h"
#include "src/model/ring_graph.h"

using namespace nd;

namespace {

// NCCL 2.18.3 lines: two hosts with one GPU and two NICs each; GRAPH ring
// lines for channels 00 and 01, connection lines as given.
JobModel two_channels(std::initializer_list<std::string_view> connections) {
  std::vector<std::string_view> lines = {
      "NCCL version 2.18.3+cuda12.2",
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpuB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.11<0>",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init START",
      "gpuA:100:100 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1",
      "gpuA:100:100 [0] NCCL INFO Ring 01 : 1 -> 0 -> 1",
      "gpuB:200:200 [0] NCCL INFO Ring 00 : 0 -> 1 -> 0",
      "gpuB:200:200 [0] NCCL INFO Ring 01 : 0 -> 1 -> 0",
  };
  lines.insert(lines.end(), connections.begin(), connections.end());
  return model_from_lines(lines);
}

constexpr std::string_view kChannel0[] = {
    "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
    "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA",
    "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0/GDRDMA",
    "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
};

}  // namespace

TEST_CASE("channels: set up by GRAPH lines, connected by connection lines, rings as graph draws them") {
  JobModel m = two_channels({kChannel0[0], kChannel0[1]});
  JobSummary s = summarize(m);
  REQUIRE(s.comms.size() == 1);
  const CommSummary& c = s.comms[0];
  CHECK(c.key == "0x5");
  CHECK(c.nranks == 2);
  CHECK(c.nnodes == 0);
  CHECK(c.hosts == 2);
  CHECK(c.channels == 2);
  CHECK(c.connected_channels == 1);
  CHECK(c.ring_channels == 2);
  CHECK(c.ring_channels == build_rings(m.comms[0]).size());
  CHECK(c.tree_channels == 0);
  CHECK(c.edges == 1);
  CHECK(s.coverage.channels == std::vector<uint32_t>{0});
}

TEST_CASE("ring channels from connection lines when there are no GRAPH lines, as graph draws them") {
  JobModel m = model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init START",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
      "gpuA:101:101 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/IPC/read",
      "gpuA:100:100 [0] NCCL INFO Channel 01/1 : 0[0] -> 1[1] via P2P/IPC/read",
  });
  JobSummary s = summarize(m);
  CHECK(s.comms[0].channels == 2);
  CHECK(s.comms[0].connected_channels == 2);
  CHECK(s.comms[0].ring_channels == 1);  // connIndex 1 is no ring
  CHECK(s.comms[0].ring_channels == build_rings(m.comms[0]).size());
}

TEST_CASE("a NIC is idle only where the host's connection lines are whole") {
  SUBCASE("every rank printed a line on every channel: mlx5_1 carries nothing") {
    JobModel m = two_channels({kChannel0[0], kChannel0[1], kChannel0[2], kChannel0[3],
                               "gpuA:100:100 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                               "gpuB:200:200 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA"});
    JobSummary s = summarize(m);
    REQUIRE(s.rails.size() == 2);
    CHECK(s.rails[0].name == "gpuA");
    CHECK(s.rails[0].whole);
    CHECK(s.rails[0].idle_nics == std::vector<std::string>{"mlx5_1"});
    REQUIRE(s.rails[0].uses.size() == 1);
    CHECK(s.rails[0].uses[0].nic == "mlx5_0");
    CHECK(s.rails[1].idle_nics == std::vector<std::string>{"mlx5_1"});
  }
  SUBCASE("channel 01 has no line: an excerpt, so no NIC is called idle") {
    JobSummary s = summarize(two_channels({kChannel0[0], kChannel0[1], kChannel0[2], kChannel0[3]}));
    REQUIRE(s.rails.size() == 2);
    CHECK_FALSE(s.rails[0].whole);
    CHECK(s.rails[0].idle_nics.empty());
    CHECK(s.rails[1].idle_nics.empty());
  }
}

TEST_CASE("a rank whose host is unknown may hide its lines on any host: no NIC is idle") {
  JobSummary s = summarize(model_from({
      "gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpuB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.11<0>",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 3 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 3 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init START",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA",
  }));
  REQUIRE(s.rails.size() == 2);
  CHECK_FALSE(s.rails[0].whole);
  CHECK(s.rails[0].idle_nics.empty());
}

TEST_CASE("versions: who printed them, and a banner that names no process counts none") {
  JobSummary raw = summarize(two_channels({}));
  CHECK(raw.processes == 2);
  REQUIRE(raw.nccl_versions.size() == 1);
  CHECK(raw.nccl_versions[0].name == "2.18.3");
  CHECK(raw.nccl_versions[0].processes == 0);
  CHECK(raw.nccl_versions[0].unnamed);
  REQUIRE(raw.cuda_versions.size() == 1);
  CHECK(raw.cuda_versions[0].name == "12.2");

  JobSummary info = summarize(model_from({
      "gpu01:2771:2771 [0] NCCL INFO NCCL version 2.27.7+cuda13.0",
      "gpu01:2771:2771 [0] NCCL INFO cudaDriverVersion 12040",
      "gpu01:2772:2772 [1] NCCL INFO cudaDriverVersion 12040",
      "gpu01:2771:2771 [0] NCCL INFO NCCL version 2.27.7+cuda13.0",
  }));
  CHECK(info.processes == 2);
  REQUIRE(info.nccl_versions.size() == 1);
  CHECK(info.nccl_versions[0].processes == 1);
  CHECK_FALSE(info.nccl_versions[0].unnamed);
  REQUIRE(info.driver_versions.size() == 1);
  CHECK(info.driver_versions[0].code == 12040);
  CHECK(info.driver_versions[0].printed.name == "12.4");
  CHECK(info.driver_versions[0].printed.processes == 2);
  CHECK(names(info.nccl_versions) == std::vector<std::string>{"2.27.7"});
}

TEST_CASE("hosts, GPUs and the transport matrix of a two-host job") {
  JobSummary s = summarize(two_channels({kChannel0[0], kChannel0[1], kChannel0[2], kChannel0[3]}));
  CHECK(s.hosts == 2);
  CHECK(s.ranks == 2);
  CHECK(s.primary == 0u);
  REQUIRE(s.host_rows.size() == 2);
  CHECK(s.host_rows[1].name == "gpuB");
  CHECK(s.host_rows[1].processes == 1);
  CHECK(s.host_rows[1].primary_ranks == std::vector<uint32_t>{1});
  REQUIRE(s.host_rows[1].gpus.size() == 1);
  CHECK(s.host_rows[1].gpus[0].bus_id == 0x1b000u);
  REQUIRE(s.host_rows[1].nics.size() == 1);
  CHECK(s.nics[s.host_rows[1].nics[0]].host_name == "gpuB");
  REQUIRE(s.matrix.size() == 2);
  CHECK(s.matrix[0].from_name == "gpuA");
  CHECK(s.matrix[0].to_name == "gpuB");
  CHECK(s.matrix[0].transports == std::vector<std::pair<std::string, uint64_t>>{{"NET/IB+GDR", 1}});
}

TEST_CASE("version_less orders versions by number") {
  CHECK(version_less("2.4.8", "2.18.3"));
  CHECK_FALSE(version_less("2.18.3", "2.4.8"));
  CHECK(version_less("2.18.3", "2.18.10"));
}

TEST_CASE("an excerpt's job size: the shape lines' nRanks and nNodes, the ring listing's ranks") {
  // 2.20+: `comm ... nRanks 16 nNodes 2` of communicators whose Init lines
  // the excerpt lacks; the lines themselves name ranks 13 and 14 only.
  JobModel shaped = model_from({
      "qh100-gpu20:39634:39692 [5] NCCL INFO comm 0x5558e3c10180 rank 13 nRanks 16 nNodes 2 localRanks 8 localRank 5 MNNVL 0",
      "qh100-gpu20:39634:39692 [5] NCCL INFO Trees [0] 15/-1/-1->13->14 [1] 15/-1/-1->13->14",
      "qh100-gpu20:39635:39691 [6] NCCL INFO comm 0x56089796c4b0 rank 14 nRanks 16 nNodes 2 localRanks 8 localRank 6 MNNVL 0",
  });
  JobSummary s = summarize(shaped, {});
  CHECK(s.ranks == 16);
  CHECK(s.hosts == 2);
  // A ring listing names every rank of its communicator.
  JobModel listed = model_from({
      "gpu01:100:100 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7",
      "gpu01:100:100 [0] NCCL INFO Channel 01/02 :    0   1   2   3   4   5   6   7",
  });
  CHECK(summarize(listed, {}).ranks == 8);
  CHECK(summarize(listed, {}).ranks_stated);
  CHECK(summarize(shaped, {}).ranks_stated);
  // Connection lines alone name some ranks: the job has at least one more than the highest.
  JobModel named = model_from({
      "gpu01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 157[0] [send] via NET/IB/0",
  });
  JobSummary n = summarize(named, {});
  CHECK(n.ranks == 158);
  CHECK_FALSE(n.ranks_stated);
}
