#pragma once
// Finds and opens the verbs plugin. Order matters for the report: first
// libibverbs itself (so "rdma-core is not installed" is said in those words),
// then our plugin.
//
// Environment:
//   ND_IBVERBS_LIBRARY  library to try instead of libibverbs.so.1 (tests
//                       point it at a missing file to play "no rdma-core")
//   ND_VERBS_PLUGIN     path of the plugin instead of the installed one

#include <memory>
#include <string>

#include "src/probe/host_facts.h"
#include "src/probe/verbs_probe.h"

namespace nd {

inline constexpr const char* kVerbsPluginName = "nd-verbs-ibverbs.so";

enum class VerbsLoadStatus : uint8_t { Loaded, NotInstalled, PluginMissing, PluginBroken };
std::string verbs_load_status_str(VerbsLoadStatus s);

struct VerbsLoad {
  VerbsLoadStatus status = VerbsLoadStatus::NotInstalled;
  std::string message;
  std::unique_ptr<VerbsProbe> probe;  // set when Loaded
};

VerbsLoad load_verbs_plugin(const EnvLookup& env);

}  // namespace nd
