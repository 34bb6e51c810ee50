// The cluster path for real: `nccl-doctor probe --json` under Open MPI's
// mpirun (4 ranks on this host, --tag-output prefixes kept), one record made
// an outlier, then `preflight --aggregate`. Only that node may be flagged.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "src/cli/cli_test_config.h"
#include "src/cli/run_tool.h"
#include "src/util/test_skip.h"

using namespace nd;
namespace fs = std::filesystem;

TEST_CASE("probe under mpirun, aggregate, one outlier") {
  if (run_tool("command -v mpirun >/dev/null 2>&1").status != 0) skip_test("mpirun not installed (openmpi-bin)");
  // Real /sys of this machine: whatever it has, all four ranks see the same.
  ToolRun mpi = run_tool("mpirun --allow-run-as-root --oversubscribe -np 4 --tag-output " + shell_quote(ND_BINARY) +
                         " probe --json 2>&1");
  INFO(mpi.out);
  REQUIRE(mpi.status == 0);

  // Make rank 2 the odd one out: a node whose rdma-core is missing and whose
  // memlock limit is small. The launcher prefix stays as mpirun wrote it.
  std::istringstream lines(mpi.out);
  std::string line, input;
  int records = 0;
  std::string outlier_host;
  while (std::getline(lines, line)) {
    size_t brace = line.find('{');
    if (brace != std::string::npos && line.find("[1,2]<stdout>:") == 0) {
      auto j = nlohmann::ordered_json::parse(line.substr(brace));
      j["verbs"]["status"] = "not-installed";
      j["host"]["memlock_soft"] = 65536;
      outlier_host = j["host"]["host"].get<std::string>();
      line = line.substr(0, brace) + j.dump();
    }
    records += brace != std::string::npos;
    input += line + "\n";
  }
  REQUIRE(records == 4);
  fs::path file = fs::temp_directory_path() / ("nd-mpirun-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file) << input;

  ToolRun agg = run_tool(shell_quote(ND_BINARY) + " preflight --no-local-rules --format json --aggregate " +
                         shell_quote(file.string()));
  INFO(agg.out);
  fs::remove(file);
  CHECK(agg.status == 2);
  auto report = nlohmann::json::parse(agg.out);
  REQUIRE(report["nodes"].size() == 4);
  // All ranks ran on this host, so nodes are labelled host#rank.
  std::string outlier = outlier_host + "#2";
  for (const auto& n : report["nodes"]) {
    CAPTURE(n["label"].get<std::string>());
    CHECK(n["status"] == (n["label"] == outlier ? "CRITICAL" : "OK"));
  }
  int flagged = 0;
  for (const auto& f : report["findings"]) {
    if (f["id"] != "ND5001") continue;
    ++flagged;
    CHECK(f["hosts"] == nlohmann::json::array({outlier}));
  }
  CHECK(flagged == 2);  // libibverbs and memlock limit
}
