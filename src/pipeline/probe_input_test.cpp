// check over a log and the probe records of its nodes: the node rules judge
// each record, and the log's fallbacks cite their causes on those nodes.
#include "src/pipeline/pipeline.h"

#include <algorithm>

#include <doctest/doctest.h>

#include "checks/node_fixture.h"
#include "src/model/model_builder.h"
#include "src/probe/ib_attrs.h"
#include "src/probe/snapshot_json.h"

using namespace nd;

namespace {

constexpr std::string_view kInit[] = {
    "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
    "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
};
constexpr std::string_view kSockets[] = {
    "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
    "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
};
constexpr std::string_view kIbWithoutGdr[] = {
    "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0",
    "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0",
};

// A healthy DGX H100 named `host`, whatever this machine's memlock limit.
NodeSnapshot healthy(const std::string& host) {
  NodeSnapshot n = healthy_node(host);
  n.host.memlock_soft = kMemlockUnlimited;
  return n;
}

NodeSnapshot port_down(const std::string& host) {
  NodeSnapshot n = healthy(host);
  n.hcas[0].ports[0].state = kPortDown;
  n.hcas[0].ports[0].phys_state = kPhysPolling;
  return n;
}

// job.log holds the log, probes.jsonl one `srun -l` line per record.
JobModel model_of(std::span<const std::string_view> log, const std::vector<NodeSnapshot>& records) {
  JobModel model;
  ModelBuilder builder(model);
  uint32_t f = builder.add_file("job.log");
  uint64_t n = 0;
  for (std::string_view line : kInit) builder.add_line(f, Line{line, ++n, false});
  for (std::string_view line : log) builder.add_line(f, Line{line, ++n, false});
  uint32_t p = builder.add_file("probes.jsonl");
  std::vector<std::string> lines;
  for (size_t i = 0; i < records.size(); ++i) lines.push_back(std::to_string(i) + ": " + snapshot_record_line(records[i]));
  n = 0;
  for (const auto& line : lines) builder.add_line(p, Line{line, ++n, false});
  builder.finish();
  return model;
}

const Finding* find(const CheckReport& r, std::string_view id) {
  auto it = std::find_if(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.id == id; });
  return it == r.findings.end() ? nullptr : &*it;
}

std::vector<std::string> ids(const CheckReport& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.id);
  return out;
}

}  // namespace

TEST_CASE("a socket fallback between two nodes is explained by the DOWN port of one's probe record") {
  CheckConfig config;
  CheckReport r = analyze(model_of(kSockets, {healthy("gpuA"), port_down("gpuB.cluster.example")}), config);
  CHECK(ids(r) == std::vector<std::string>{"ND3001", "ND4003"});
  const Finding* socket = find(r, "ND3001");
  REQUIRE(socket);
  CHECK(socket->message ==
        "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NET/Socket (1 connection); the probe records show "
        "why: gpuB.cluster.example: mlx5_0 port 1 is DOWN / Polling");
  REQUIRE(socket->evidence.size() == 3);
  CHECK(socket->evidence[2].file == "probes.jsonl");
  CHECK(socket->evidence[2].line == 2);
  CHECK(socket->evidence[2].text == "gpuB.cluster.example: mlx5_0 port 1 is DOWN / Polling (probe record)");
  CHECK(socket->related == std::vector<std::string>{"ND4003"});
  const Finding* port = find(r, "ND4003");
  REQUIRE(port);
  CHECK(port->message ==
        "gpuB.cluster.example: mlx5_0 port 1 is DOWN / Polling: NCCL skips ports that are not ACTIVE");
  CHECK(port->hosts == std::vector<std::string>{"gpuB.cluster.example"});
  CHECK(port->ranks.empty());
  REQUIRE(port->evidence.size() == 2);
  CHECK(port->evidence[0].file == "probes.jsonl");
  CHECK(port->evidence[0].line == 2);
  CHECK(port->evidence[0].text == "class/infiniband/mlx5_0/ports/1/state: DOWN");
  CHECK(port->related == std::vector<std::string>{"ND3001"});
  // The node rules are judged with the log rules.
  CHECK(std::any_of(r.rules.begin(), r.rules.end(), [](const RuleStatus& s) { return s.id == "ND4003"; }));
  CHECK(r.verdict == Verdict::Fail);
  const auto& inputs = r.summary.gpu_side.inputs;
  REQUIRE(inputs.size() == 2);
  CHECK(inputs[1].path == "probes.jsonl");
  CHECK(inputs[1].kind == "probe-record");
}

TEST_CASE("RDMA without GPUDirect is explained by a record without peermem or dma-buf") {
  NodeSnapshot no_gdr = healthy("gpuA");
  no_gdr.gdr = {};
  CheckConfig config;
  CheckReport r = analyze(model_of(kIbWithoutGdr, {no_gdr, healthy("gpuB")}), config);
  CHECK(ids(r) == std::vector<std::string>{"ND4007", "ND3004"});
  const Finding* gdr = find(r, "ND3004");
  REQUIRE(gdr);
  CHECK(gdr->message.ends_with("; the probe records show why: gpuA: GPUDirect RDMA is not ready"));
  CHECK(gdr->related == std::vector<std::string>{"ND4007"});
  CHECK(gdr->evidence.back().text == "gpuA: GPUDirect RDMA is not ready (probe record)");
  CHECK(gdr->evidence.back().line == 1);
}

TEST_CASE("healthy records, and a record of another host, explain nothing") {
  CheckConfig config;
  CheckReport plain = analyze(model_of(kSockets, {}), config);
  CheckReport healthy_nodes = analyze(model_of(kSockets, {healthy("gpuA"), healthy("gpuB")}), config);
  CheckReport other = analyze(model_of(kSockets, {port_down("gpuC")}), config);
  REQUIRE(find(plain, "ND3001"));
  CHECK(ids(healthy_nodes) == std::vector<std::string>{"ND3001"});
  CHECK(find(healthy_nodes, "ND3001")->message == find(plain, "ND3001")->message);
  CHECK(find(healthy_nodes, "ND3001")->evidence.size() == find(plain, "ND3001")->evidence.size());
  // gpuC's own fault is reported, but it explains nothing of gpuA and gpuB.
  CHECK(ids(other) == std::vector<std::string>{"ND3001", "ND4003"});
  CHECK(find(other, "ND3001")->message == find(plain, "ND3001")->message);
  CHECK(find(other, "ND3001")->related.empty());
  CHECK(find(other, "ND4003")->related.empty());
}

TEST_CASE("rule selection holds for node rules; a disabled cause is still cited, not related") {
  CheckConfig config;
  REQUIRE_FALSE(select_rules(check_rules_with_probes(), {}, {"port-not-active"}, config.selection));
  CheckReport r = analyze(model_of(kSockets, {port_down("gpuB")}), config);
  CHECK(ids(r) == std::vector<std::string>{"ND3001"});
  CHECK(find(r, "ND3001")->message.ends_with("the probe records show why: gpuB: mlx5_0 port 1 is DOWN / Polling"));
  CHECK(find(r, "ND3001")->related.empty());
  CHECK_FALSE(std::any_of(r.rules.begin(), r.rules.end(), [](const RuleStatus& s) { return s.id == "ND4003"; }));
}

TEST_CASE("probe records alone are judged: not 'nothing to judge'; unreadable ones are record-invalid") {
  CheckConfig config;
  JobModel only;
  {
    ModelBuilder builder(only);
    uint32_t p = builder.add_file("probes.jsonl");
    std::string good = snapshot_record_line(port_down("gpuB"));
    std::string cut = good.substr(0, 100);
    builder.add_line(p, Line{good, 1, false});
    builder.add_line(p, Line{cut, 2, false});
    builder.finish();
  }
  CheckReport alone = analyze(only, config);
  CHECK(ids(alone) == std::vector<std::string>{"ND4003", "ND5002"});
  CHECK(alone.verdict == Verdict::Fail);
  CHECK(exit_code(alone, FailOn::Error) == 1);
  const Finding* invalid = find(alone, "ND5002");
  REQUIRE(invalid);
  CHECK(invalid->message ==
        "record at line 2 ignored: truncated record (it does not close on its line; lines longer than 64 KiB are cut)");
  REQUIRE(invalid->evidence.size() == 1);
  CHECK(invalid->evidence[0].file == "probes.jsonl");
  CHECK(invalid->evidence[0].line == 2);
  // The NCCL-log rules are left undecided, without blocking the verdict.
  REQUIRE_FALSE(alone.gaps.empty());
  CHECK(alone.gaps[0].reason == "the input holds no NCCL debug lines");
  CHECK_FALSE(alone.gaps[0].blocks_verdict);
  // A healthy record alone passes.
  JobModel fine;
  {
    ModelBuilder builder(fine);
    uint32_t p = builder.add_file("probes.jsonl");
    std::string good = snapshot_record_line(healthy("gpuA"));
    builder.add_line(p, Line{good, 1, false});
    builder.finish();
  }
  CheckReport pass = analyze(fine, config);
  CHECK(pass.findings.empty());
  CHECK(pass.verdict == Verdict::Pass);
  CHECK(exit_code(pass, FailOn::Error) == 0);
}
