#include "src/probe/fake_verbs_probe.h"

#include <cerrno>

namespace nd {

int FakeVerbsProbe::list_devices(std::vector<std::string>& names) {
  names.clear();
  if (list_error != 0) return list_error;
  for (const auto& d : devices) names.push_back(d.name);
  return 0;
}

int FakeVerbsProbe::query_device(const std::string& name, VerbsDevice& out) {
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
