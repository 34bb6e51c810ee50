#pragma once
// The rule catalogue. Rules are registered explicitly, sorted by ID, one
// register_<family>_rules() per folder; no static self-registration.

#include <memory>
#include <string_view>
#include <vector>

#include "checks/rule.h"

namespace nd {

class Registry {
 public:
  template <typename T>
  void add() {
    rules_.push_back(std::make_unique<T>());
  }
  const std::vector<std::unique_ptr<Rule>>& rules() const { return rules_; }
  // By ID ("ND3001") or slug ("inter-node-socket"); nullptr when unknown.
  const Rule* find(std::string_view name) const;

 private:
  std::vector<std::unique_ptr<Rule>> rules_;
};

void register_input_rules(Registry& r);
void register_transport_rules(Registry& r);

// Every log rule, in ID order.
const Registry& log_rules();

}  // namespace nd
