#include "src/report/text_renderer.h"

#include <doctest/doctest.h>

using namespace nd;

namespace {

CheckReport sample() {
  CheckReport r;
  r.summary.hosts = 2;
  r.summary.ranks = 16;
  r.summary.ranks_stated = true;
  r.summary.communicators = 1;
  r.summary.nccl_versions = {Printed{"2.18.3"}};
  r.summary.intra = {"P2P"};
  r.summary.inter = {"Socket"};
  r.summary.gdr = "no";
  r.summary.counters.lines = 168;
  r.summary.counters.nccl_lines = 167;
  r.summary.coverage = {2, 2, 16, 16, {0, 1}, false};
  r.gaps.push_back({"CPU binding: the input has no launcher binding report",
                    "mpirun --report-bindings, or srun --cpu-bind=verbose", {"ND2011"}, false});
  Finding f;
  f.id = "ND3001";
  f.slug = "inter-node-socket";
  f.severity = Severity::Error;
  f.message = "ranks 0,7 on gpu009 <-> ranks 8,15 on gpu028, channels 00-01, via NET/Socket (4 connections)";
  f.evidence.push_back({"job.log", 108, "gpu009:3030:3030 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/3"});
  f.fix = "unset NCCL_IB_DISABLE";
  r.findings.push_back(f);
  r.verdict = Verdict::Fail;
  return r;
}

}  // namespace

TEST_CASE("text report: summary, findings with evidence, verdict") {
  CHECK(render_text(sample(), TextStyle{false}) ==
        "job: 2 hosts, 16 ranks, 1 communicator; NCCL 2.18.3\n"
        "transports: intra-node P2P; inter-node Socket; GPUDirect RDMA no\n"
        "input: 168 lines read, 167 from NCCL, 0 of unrecognized shape\n"
        "coverage: connections of 16 of 16 ranks on 2 of 2 hosts, channels 00-01\n"
        "not checked: CPU binding: the input has no launcher binding report\n"
        "    rerun with: mpirun --report-bindings, or srun --cpu-bind=verbose\n"
        "\n"
        "error: ranks 0,7 on gpu009 <-> ranks 8,15 on gpu028, channels 00-01, via NET/Socket (4 connections) "
        "[ND3001 inter-node-socket]\n"
        "    job.log:108: gpu009:3030:3030 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/3\n"
        "    fix: unset NCCL_IB_DISABLE\n"
        "\n"
        "verdict: FAIL (1 error, 0 warnings, 0 notes)\n"
        "details: nccl-doctor explain ND3001\n");
}

TEST_CASE("colour only when asked, and log text cannot inject escapes") {
  CheckReport r = sample();
  r.findings[0].evidence[0].text = "evil\x1b]0;pwned\x07host";
  std::string plain = render_text(r, TextStyle{false});
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(plain.find("evil\\x1b]0;pwned\\x07host") != std::string::npos);
  std::string colored = render_text(r, TextStyle{true});
  CHECK(colored.find("\x1b[1;31merror\x1b[0m: ") != std::string::npos);
}

TEST_CASE("warnings without a failure read WARN, not PASS") {
  CheckReport r = sample();
  r.findings[0].severity = Severity::Warning;
  r.verdict = Verdict::Warn;
  std::string text = render_text(r, TextStyle{false});
  CHECK(text.substr(text.rfind("verdict:")) ==
        "verdict: WARN (0 errors, 1 warning, 0 notes)\ndetails: nccl-doctor explain ND3001\n");
}

TEST_CASE("text report: the inter-node family, with the name NCCL printed where it differs") {
  CheckReport r = sample();
  r.findings.clear();
  r.summary.inter = {"IBext_v8"};
  r.summary.inter_families = {"RoCE"};
  r.summary.inter_from = "connections";
  CHECK(render_text(r, TextStyle{false}).find("transports: intra-node P2P; inter-node RoCE (IBext_v8); GPUDirect RDMA no\n") !=
        std::string::npos);
  r.summary.inter = {"IB"};
  r.summary.inter_families = {"IB"};
  CHECK(render_text(r, TextStyle{false}).find("; inter-node IB; ") != std::string::npos);
  r.summary.inter.clear();
  r.summary.inter_from = "network";
  CHECK(render_text(r, TextStyle{false}).find("; inter-node IB (NCCL's choice; no inter-node connection lines); ") !=
        std::string::npos);
  r.summary.inter_from = "warnings";
  CHECK(render_text(r, TextStyle{false}).find("; inter-node IB (from IB WARNs; no inter-node connection lines); ") !=
        std::string::npos);
}

TEST_CASE("text report: a job size the input does not state is a lower bound") {
  CheckReport r = sample();
  r.summary.ranks_stated = false;
  CHECK(render_text(r, TextStyle{false}).starts_with("job: 2 hosts, at least 16 ranks, 1 communicator; NCCL 2.18.3\n"));
}

TEST_CASE("text report: hosts that the lines do not name") {
  CheckReport r = sample();
  r.summary.hosts = 0;
  r.summary.host_unknown_processes = 4;
  CHECK(render_text(r, TextStyle{false}).starts_with("job: host unknown, 16 ranks, 1 communicator; NCCL 2.18.3\n"));
  r.summary.hosts = 2;  // from NCCL's nNodes
  CHECK(render_text(r, TextStyle{false}).starts_with("job: 2 hosts, names unknown, 16 ranks,"));
  r.summary.named_hosts = 1;
  CHECK(render_text(r, TextStyle{false}).starts_with("job: 2 hosts and lines whose host is unknown, 16 ranks,"));
}

TEST_CASE("text report: idle NICs, folded by the NICs that sit idle, most hosts first") {
  CheckReport r = sample();
  auto rail = [](const char* host, std::vector<std::string> idle) {
    RailSummary s;
    s.name = host;
    s.whole = !idle.empty();
    s.idle_nics = std::move(idle);
    return s;
  };
  r.summary.rails = {rail("gpu001", {"mlx5_2", "mlx5_3"}), rail("gpu002", {"mlx5_1"}),
                     rail("gpu003", {"mlx5_2", "mlx5_3"}), rail("gpu004", {})};
  CHECK(render_text(r, TextStyle{false}).find("coverage: connections of 16 of 16 ranks on 2 of 2 hosts, channels 00-01\n"
                                              "idle NICs: mlx5_2, mlx5_3 on gpu001, gpu003\n"
                                              "idle NICs: mlx5_1 on gpu002\n"
                                              "not checked:") != std::string::npos);
  CHECK(idle_nics_text({"mlx5_0", "evil\x1b"}) == "idle NICs: mlx5_0, evil\\x1b");
  for (const char* nic : {"mlx5_4", "mlx5_5", "mlx5_6"}) r.summary.rails.push_back(rail("gpu005", {nic}));
  CHECK(render_text(r, TextStyle{false}).find("idle NICs: mlx5_5 on gpu005\n"
                                              "idle NICs: other sets on 1 host (nccl-doctor summary lists them)\n") !=
        std::string::npos);
}
