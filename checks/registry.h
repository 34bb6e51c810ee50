#pragma once
// The rule catalogue: every rule of every family (log, node and cluster
// rules), registered explicitly, one register_<family>_rules() per folder; no
// static self-registration.
// Users name rules by ID, slug, a renamed slug's alias, or an ID range; the
// registry resolves those names and suggests the closest one for a typo.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checks/rule.h"

namespace nd {

// A slug that a rule once had. Renamed slugs stay valid forever.
struct RuleAlias {
  std::string_view name;
  std::string_view id;
};

class Registry {
 public:
  template <typename T>
  void add() {
    add(std::make_unique<T>());
  }
  void add(std::unique_ptr<Rule> rule) { add_shared(std::move(rule)); }
  // `name` must not be a current ID or slug; `id` must be registered.
  void add_alias(std::string_view name, std::string_view id);
  const std::vector<std::shared_ptr<const Rule>>& rules() const { return rules_; }
  // The rules' infos, in the same order.
  const std::vector<const RuleInfo*>& infos() const { return infos_; }
  const std::vector<RuleAlias>& aliases() const { return aliases_; }
  // By ID ("ND3001", any case), slug ("inter-node-socket") or alias; nullptr
  // when unknown.
  const RuleInfo* find(std::string_view name) const;
  // The rule that find() names; nullptr when unknown.
  const Rule* rule(std::string_view name) const;
  // The rule whose ID, slug or alias is closest to `name` (edit distance, or
  // `name` inside a slug); nullptr when nothing is close.
  const RuleInfo* suggest(std::string_view name) const;
  // Rules whose slug holds `word` ("socket"): as a whole word of the slug
  // first, then inside one; within each, errors before warnings before
  // notes, then by ID. Empty for words under four characters.
  std::vector<const RuleInfo*> rules_mentioning(std::string_view word) const;
  std::vector<std::string_view> aliases_of(std::string_view id) const;
  // Orders the rules by ID, so each family can register its own block.
  void sort_by_id();
  // The rules that read `needs` (the same rule objects) and their aliases.
  Registry only(Needs needs) const;
  // The rules `keep` keeps, and their aliases.
  Registry only(bool (*keep)(const RuleInfo&)) const;

 private:
  void add_shared(std::shared_ptr<const Rule> rule);

  std::vector<std::shared_ptr<const Rule>> rules_;
  std::vector<const RuleInfo*> infos_;
  std::vector<RuleAlias> aliases_;
};

// One per family folder, each adding its rules in ID order.
void register_input_rules(Registry& r);
void register_health_rules(Registry& r);
void register_topology_rules(Registry& r);
void register_rail_rules(Registry& r);
void register_transport_rules(Registry& r);
void register_config_rules(Registry& r);
void register_hardware_rules(Registry& r);
void register_cross_rules(Registry& r);
void register_gpu_rules(Registry& r);
// Old slugs of renamed rules; see kRuleAliases in registry.cpp.
void register_aliases(Registry& r);

// Every rule, in ID order: what `rules` lists and `explain` explains.
const Registry& all_rules();
// The rules that read the log: what `check` runs, lists and selects from.
const Registry& log_rules();
// What `check` runs when its inputs hold probe records: the log rules, the
// node rules on each record, and record-invalid (ND5002) on those it cannot
// read. `check --enable/--disable` select from these.
const Registry& check_rules_with_probes();

// Which rules run. All of them by default; --enable narrows the set to the
// rules it names, --disable then removes rules from it.
class RuleSelection {
 public:
  bool enabled(std::string_view id) const;
  void enable(std::string_view id);
  void disable(std::string_view id);

 private:
  std::optional<std::set<std::string, std::less<>>> only_;
  std::set<std::string, std::less<>> disabled_;
};

// Parses --enable and --disable values: comma-separated IDs, slugs, aliases
// and inclusive ID ranges (ND3000-ND3999); each option may repeat. Returns
// the error text for the first bad name ("--disable: unknown rule 'x'; did
// you mean ND3001 (inter-node-socket)?"), or nullopt.
std::optional<std::string> select_rules(const Registry& registry, const std::vector<std::string>& enable,
                                        const std::vector<std::string>& disable, RuleSelection& out);

// Levenshtein distance, ASCII case-insensitive.
size_t edit_distance(std::string_view a, std::string_view b);

// A rule's family from its ID, as the man page, README and `rules --format
// json` name it: input ND10xx, health ND11xx, topology ND20xx, rail ND21xx,
// transport ND30xx, config ND31xx, hardware ND40xx, cluster ND50xx, gpu ND60xx.
std::string_view rule_family(std::string_view id);

}  // namespace nd
