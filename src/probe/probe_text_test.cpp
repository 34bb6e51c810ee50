#include "src/probe/probe_text.h"

#include <doctest/doctest.h>

#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"
#include "src/util/golden_check.h"

using namespace nd;

namespace {

NodeSnapshot collect(const std::string& scenario) {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/" + scenario);
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  NodeSnapshot n = collect_snapshot(s, f, {nullptr, "not-installed", "cannot load libibverbs.so.1"});
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  if (!issues.empty()) {
    // An unusable host.json falls back to the machine running the test: pin
    // what differs from one machine to the next, so the golden holds anywhere.
    n.host.host = "this-machine";
    n.host.memlock_soft = 8u << 20;
    n.host.cap_ipc_lock = true;
    n.host.kernel = "this-kernel";
  }
  return n;
}

}  // namespace

TEST_CASE("probe text for each fixture node") {
  for (const char* scenario : {"dgx-h100-ib", "broken", "roce-cx6dx", "no-rdma", "garbage"}) {
    CAPTURE(scenario);
    check_golden(std::string(ND_FIXTURES) + "/sysfs/" + scenario + ".probe.expected.txt",
                 render_probe_text(collect(scenario)));
  }
}

TEST_CASE("memlock and rate wording") {
  CHECK(memlock_str(kMemlockUnlimited) == "unlimited");
  CHECK(memlock_str(65536) == "64 KiB");
  CHECK(memlock_str(8u << 20) == "8 MiB");
  CHECK(memlock_str(1000) == "1000 bytes");
  CHECK(memlock_str(std::nullopt) == "unknown");
  PortInfo p;
  p.rate_error = "EINVAL";
  CHECK(rate_str(p) == "unreadable (EINVAL)");
}
