#include "src/probe/scripted_verbs_probe.h"

#include <cerrno>

namespace nd {

int ScriptedVerbsProbe::list_devices(std::vector<std::string>& names) {
  names.clear();
  if (list_error != 0) return list_error;
  if (listed) {
    names = *listed;
    return 0;
  }
  for (const auto& d : devices) names.push_back(d.name);
  return 0;
}

int ScriptedVerbsProbe::query_device(const std::string& name, VerbsDevice& out) {
  ++queries;
  if (auto it = open_errors.find(name); it != open_errors.end()) return it->second;
  for (const auto& d : devices) {
    if (d.name == name) {
      out = d;
      return 0;
    }
  }
  return ENODEV;
}

}  // namespace nd
