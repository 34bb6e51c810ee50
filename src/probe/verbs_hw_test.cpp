// The verbs backend as built, loaded on this machine. Skips (77) when the
// build has no backend (no libibverbs-dev) or the machine has RDMA devices.
#include "src/probe/verbs_loader.h"

#include <cerrno>
#include <map>

#include <doctest/doctest.h>

#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"
#include "src/util/test_skip.h"

using namespace nd;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace

TEST_CASE("a missing plugin is told apart from a missing rdma-core") {
  if (std::string(ND_VERBS_PLUGIN_PATH).empty()) skip_test("built without libibverbs-dev: no verbs backend to load");
  VerbsLoad l = load_verbs_plugin(env_of({{"ND_VERBS_PLUGIN", "/nonexistent/nd-verbs-ibverbs.so"}}));
  CHECK(l.status == VerbsLoadStatus::PluginMissing);
  CHECK(l.message ==
        "libibverbs loads but the verbs backend nd-verbs-ibverbs.so was not found (tried "
        "/nonexistent/nd-verbs-ibverbs.so); install it beside the tool (build with libibverbs-dev present: 'meson "
        "setup' then shows 'verbs backend: YES'), or set ND_VERBS_PLUGIN to its path");
}

TEST_CASE("the real backend loads and, on a machine without devices, reports no RDMA devices") {
  if (std::string(ND_VERBS_PLUGIN_PATH).empty()) skip_test("built without libibverbs-dev: no verbs backend to load");
  VerbsLoad l = load_verbs_plugin(env_of({{"ND_VERBS_PLUGIN", ND_VERBS_PLUGIN_PATH}}));
  REQUIRE(l.status == VerbsLoadStatus::Loaded);
  REQUIRE(l.probe != nullptr);
  std::vector<std::string> names;
  int rc = l.probe->list_devices(names);
  if (rc == 0 && !names.empty()) skip_test("this machine has RDMA devices; the no-device check does not apply");
  CHECK((rc == 0 || rc == ENOSYS));
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/no-rdma");
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, env_of({}), issues);
  NodeSnapshot n = collect_snapshot(s, f, {l.probe.get(), "", l.message});
  CHECK(n.verbs.status == "no-devices");
  CHECK(n.verbs.message.starts_with("no RDMA devices"));
  VerbsDevice d;
  CHECK(l.probe->query_device("mlx5_0", d) != 0);
}
