#include "checks/registry.h"

#include <algorithm>

namespace nd {

const Rule* Registry::find(std::string_view name) const {
  for (const auto& r : rules_) {
    if (r->info().id == name || r->info().slug == name) return r.get();
  }
  return nullptr;
}

const Registry& log_rules() {
  static const Registry registry = [] {
    Registry r;
    register_input_rules(r);
    register_transport_rules(r);
    return r;
  }();
  return registry;
}

}  // namespace nd
