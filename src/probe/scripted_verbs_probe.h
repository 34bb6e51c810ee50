#pragma once
// A scripted VerbsProbe: devices to list, per-device results and errnos to
// return. Tests script it by hand; `--sysfs-root` replays a capture's verbs.json
// through it (captured_verbs.h).

#include <map>
#include <optional>

#include "src/probe/verbs_probe.h"

namespace nd {

class ScriptedVerbsProbe final : public VerbsProbe {
 public:
  int list_error = 0;  // e.g. ENOSYS
  std::vector<VerbsDevice> devices;
  // What list_devices() names when set; else the names of `devices`.
  std::optional<std::vector<std::string>> listed;
  std::map<std::string, int> open_errors;  // name → errno from query_device
  int queries = 0;

  int list_devices(std::vector<std::string>& names) override;
  int query_device(const std::string& name, VerbsDevice& out) override;
};

}  // namespace nd
