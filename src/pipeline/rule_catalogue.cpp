#include "src/pipeline/rule_catalogue.h"

#include "checks/cross/cluster_rule.h"
#include "checks/hardware/hardware_rule.h"

namespace nd {

const Registry& all_rules() {
  static const Registry registry = [] {
    Registry r;
    register_log_rules(r);
    for (const auto& rule : hardware_rules()) r.add_info(rule->info());
    for (const auto& rule : cluster_rules()) r.add_info(rule->info());
    r.sort_by_id();
    register_aliases(r);
    return r;
  }();
  return registry;
}

}  // namespace nd
