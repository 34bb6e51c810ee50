#include "checks/registry.h"

#include <algorithm>

namespace nd {

const Rule* Registry::find(std::string_view name) const {
  for (const auto& r : rules_) {
    if (r->info().id == name || r->info().slug == name) return r.get();
  }
  return nullptr;
}

void Registry::sort_by_id() {
  std::stable_sort(rules_.begin(), rules_.end(), [](const auto& a, const auto& b) { return a->info().id < b->info().id; });
}

const Registry& log_rules() {
  static const Registry registry = [] {
    Registry r;
    register_input_rules(r);
    register_transport_rules(r);
    register_config_rules(r);
    register_health_rules(r);
    r.sort_by_id();
    return r;
  }();
  return registry;
}

}  // namespace nd
