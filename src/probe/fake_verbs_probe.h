#pragma once
// A scripted VerbsProbe for tests: devices to list, per-device results and
// errnos to return.

#include <map>

#include "src/probe/verbs_probe.h"

namespace nd {

class FakeVerbsProbe final : public VerbsProbe {
 public:
  int list_error = 0;  // e.g. ENOSYS
  std::vector<VerbsDevice> devices;
  std::map<std::string, int> open_errors;  // name → errno from query_device
  int queries = 0;

  int list_devices(std::vector<std::string>& names) override;
  int query_device(const std::string& name, VerbsDevice& out) override;
};

}  // namespace nd
