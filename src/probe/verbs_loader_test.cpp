#include "src/probe/verbs_loader.h"

#include <cerrno>
#include <map>

#include <doctest/doctest.h>

#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"

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

TEST_CASE("a missing libibverbs is reported as rdma-core not installed") {
  VerbsLoad l = load_verbs_plugin(env_of({{"ND_IBVERBS_LIBRARY", "/nonexistent/libibverbs.so.1"}}));
  CHECK(l.status == VerbsLoadStatus::NotInstalled);
  CHECK(verbs_load_status_str(l.status) == "not-installed");
  CHECK(l.message.starts_with("cannot load /nonexistent/libibverbs.so.1 (rdma-core not installed?): "));
  CHECK(l.probe == nullptr);
}
