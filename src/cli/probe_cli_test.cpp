// The binary, end to end: exit statuses and the text users see.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "src/cli/cli_test_config.h"
#include "src/cli/run_tool.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) { return std::string(ND_CLI_FIXTURES) + "/" + name; }

ToolRun tool(const std::string& args, const std::string& env = "") { return run_outside_launcher(ND_BINARY, args, env); }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("probe reads a fixture tree and says what it found") {
  ToolRun r = tool("probe --no-verbs --sysfs-root " + shell_quote(fixture("sysfs/broken")));
  CHECK(r.status == 0);
  CHECK(r.out.starts_with("host gpu-17\nlibibverbs: skipped - verbs not consulted (--no-verbs)\n"));
  CHECK(r.out.find("    port 1: DOWN Polling  unreadable (EINVAL)  ib  lid 0xffff sm_lid 0x0") != std::string::npos);
}

TEST_CASE("without rdma-core the tool starts and says so") {
  // This machine's own /sys: only a live probe loads libibverbs.
  std::string env = "ND_IBVERBS_LIBRARY=/nonexistent/libibverbs.so.1";
  ToolRun probe = tool("probe", env);
  CHECK(probe.status == 0);
  CHECK(probe.out.find("libibverbs: not-installed - cannot load /nonexistent/libibverbs.so.1 (rdma-core not "
                       "installed?): ") != std::string::npos);
  // ND4001 (and rdma-core is not installed) here, ND4002 on a node with RDMA devices.
  ToolRun pre = tool("preflight --reason", env);
  CHECK(pre.status == 2);
  CHECK(pre.out.find("rdma-core") != std::string::npos);
}

TEST_CASE("a capture is judged as the captured node, on any machine") {
  std::string env = "ND_IBVERBS_LIBRARY=/nonexistent/libibverbs.so.1";
  ToolRun dgx = tool("preflight --sysfs-root " + shell_quote(fixture("sysfs/dgx-h100-ib")), env);
  CHECK(dgx.status == 0);
  CHECK(dgx.out == "NCCL-DOCTOR OK - nccl-doctor: fabric OK\n1 node(s) checked: 0 error(s), 0 warning(s), 0 note(s)\n");
  ToolRun probe = tool("probe --sysfs-root " + shell_quote(fixture("sysfs/dgx-h100-ib")), env);
  CHECK(probe.out.starts_with("host dgx-01\nlibibverbs: ok - libibverbs.so.1 via "));
  // Captured without verbs: not checked, and not an error.
  ToolRun roce = tool("probe --sysfs-root " + shell_quote(fixture("sysfs/roce-cx6dx")), env);
  CHECK(roce.out.starts_with("host roce-01\nlibibverbs: not-captured - the capture has no verbs facts"));
  ToolRun roce_pre = tool("preflight --reason --sysfs-root " + shell_quote(fixture("sysfs/roce-cx6dx")), env);
  CHECK(roce_pre.out.find("ND4002") == std::string::npos);

  // A capture of a capture keeps its verbs answers; one taken without verbs drops them.
  fs::path dir = fs::temp_directory_path() / ("nd-recapture-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  tool("probe --sysfs-root " + shell_quote(fixture("sysfs/dgx-h100-ib")) + " --capture " + shell_quote(dir.string()),
       env);
  CHECK(tool("probe --sysfs-root " + shell_quote(dir.string()), env).out == probe.out);
  tool("probe --no-verbs --sysfs-root " + shell_quote(fixture("sysfs/dgx-h100-ib")) + " --capture " +
           shell_quote(dir.string()),
       env);
  CHECK_FALSE(fs::exists(dir / "verbs.json"));
  fs::remove_all(dir);
}

TEST_CASE("preflight exit statuses: 0 OK, 2 critical, 3 unknown") {
  ToolRun ok = tool("preflight --no-verbs --expect hcas=8,rate=400,link=ib,gdr=yes --sysfs-root " +
                  shell_quote(fixture("sysfs/dgx-h100-ib")));
  CHECK(ok.out.starts_with("NCCL-DOCTOR "));
  // --no-verbs: ND4002 stays quiet; the rest of the DGX is healthy.
  CHECK(ok.status == 0);
  CHECK(ok.out == "NCCL-DOCTOR OK - nccl-doctor: fabric OK\n1 node(s) checked: 0 error(s), 0 warning(s), 0 "
                  "note(s); expected hcas=8,rate=400,link=ib,gdr=yes\n");
  ToolRun bad = tool("preflight --no-verbs --sysfs-root " + shell_quote(fixture("sysfs/no-rdma")));
  CHECK(bad.status == 2);
  ToolRun usage = tool("preflight --expect hcas=eight");
  CHECK(usage.status == 3);
  CHECK(usage.out == "nccl-doctor: error: --expect: expectation hcas=eight: expected a count\n");
  ToolRun missing = tool("preflight --sysfs-root /nonexistent");
  CHECK(missing.status == 3);
  ToolRun nothing = run_tool("echo garbage | " + shell_quote(ND_BINARY) + " preflight --aggregate - --reason");
  CHECK(nothing.status == 3);
  CHECK(nothing.out == "nccl-doctor: no probe records in - (1 lines)\n");
}

TEST_CASE("--expect-file and --output for node_exporter") {
  fs::path dir = fs::temp_directory_path() / ("nd-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "expect.conf") << "# NDR fabric\nhcas=8\nrate=400\n";
  ToolRun r = tool("preflight --no-verbs --format prometheus -o " + shell_quote((dir / "nd.prom").string()) +
                 " --expect-file " + shell_quote((dir / "expect.conf").string()) + " --sysfs-root " +
                 shell_quote(fixture("sysfs/broken")));
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  std::string prom = slurp((dir / "nd.prom").string());
  CHECK(prom.starts_with("# HELP nccl_doctor_preflight_status"));
  CHECK(prom.find("nccl_doctor_preflight_status 2\n") != std::string::npos);
  CHECK(prom.find("nccl_doctor_rdma_port_rate_gbps{host=\"gpu-17\",device=\"mlx5_5\",port=\"1\"} 200\n") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("probe --capture makes a tree that probes the same elsewhere") {
  fs::path dir = fs::temp_directory_path() / ("nd-capture-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ToolRun direct = tool("probe --no-verbs --json --sysfs-root " + shell_quote(fixture("sysfs/broken")));
  ToolRun cap = tool("probe --no-verbs --json --capture " + shell_quote(dir.string()) + " --sysfs-root " +
                   shell_quote(fixture("sysfs/broken")));
  CHECK(cap.status == 0);
  ToolRun again = tool("probe --no-verbs --json --sysfs-root " + shell_quote(dir.string()));
  REQUIRE(direct.status == 0);
  CHECK(again.out == direct.out);
  CHECK(fs::exists(dir / "class/infiniband/mlx5_3/ports/1/rate.errno"));
  CHECK(fs::exists(dir / "host.json"));
  fs::remove_all(dir);
}

TEST_CASE("aggregate goldens: an outlier among four, launcher-prefixed and broken records") {
  for (const char* name : {"four-nodes-one-outlier", "bad-records"}) {
    CAPTURE(name);
    std::string in = fixture(std::string("preflight/") + name + ".jsonl");
    ToolRun r = tool("preflight --aggregate " + shell_quote(in));
    std::string expected = slurp(fixture(std::string("preflight/") + name + ".expected.txt"));
    // The input path in the summary line depends on the checkout.
    std::string out = r.out;
    for (size_t p; (p = out.find(in)) != std::string::npos;) out.replace(p, in.size(), std::string(name) + ".jsonl");
    CHECK(out == expected);
  }
}
