// The binary's real verbs backend on this machine, end to end. Skips (77)
// when the build has no backend or the machine has RDMA devices.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "src/cli/cli_test_config.h"
#include "src/cli/run_tool.h"
#include "src/util/test_skip.h"

using namespace nd;

namespace {

ToolRun tool(const std::string& args) { return run_outside_launcher(ND_BINARY, args); }

}  // namespace

TEST_CASE("the real verbs backend on this machine: no RDMA devices, cleanly") {
  if (std::string(ND_CLI_VERBS_PLUGIN).empty()) skip_test("built without libibverbs-dev: no verbs backend");
  ToolRun r = tool("probe --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["schema"] == "nccl-doctor.probe/1");
  if (!j["hcas"].empty()) skip_test("this machine has RDMA devices; the no-device check does not apply");
  CHECK(j["verbs"]["status"] == "no-devices");
  CHECK(j["verbs"]["message"].get<std::string>().starts_with("no RDMA devices"));
  ToolRun pre = tool("preflight --reason");
  CHECK(pre.status == 2);
  // "(+N more)" depends on this machine's memlock limit and PCIe links.
  CHECK(pre.out.starts_with("nccl-doctor ND4001: no RDMA device in /sys/class/infiniband: NCCL will use TCP sockets "
                            "between nodes"));
}
