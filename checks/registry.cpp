#include "checks/registry.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <utility>

#include <fmt/format.h>

namespace nd {
namespace {

// Slugs that rules had before a rename, oldest first. Entries are never
// removed: scripts and CI configurations keep using old names.
constexpr RuleAlias kRuleAliases[] = {
    // {"old-slug", "ND3001"},
};

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

// "ND" and four digits, any case; returns the canonical upper-case ID.
std::optional<std::string> as_rule_id(std::string_view s) {
  if (s.size() != 6 || lower(s[0]) != 'n' || lower(s[1]) != 'd') return std::nullopt;
  for (size_t i = 2; i < 6; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  }
  return "ND" + std::string(s.substr(2));
}

std::string describe(const RuleInfo& r) { return fmt::format("{} ({})", r.id, r.slug); }

}  // namespace

void Registry::add_alias(std::string_view name, std::string_view id) {
  assert(find(id) != nullptr && "an alias must point at a registered rule");
  assert(find(name) == nullptr && "an alias must not shadow a current ID, slug or alias");
  aliases_.push_back({name, id});
}

void Registry::add_shared(std::shared_ptr<const Rule> rule) {
  infos_.push_back(&rule->info());
  rules_.push_back(std::move(rule));
}

const RuleInfo* Registry::find(std::string_view name) const {
  auto id = as_rule_id(name);
  for (const RuleInfo* r : infos_) {
    if ((id && r->id == *id) || iequals(r->slug, name)) return r;
  }
  for (const auto& a : aliases_) {
    if (iequals(a.name, name)) return find(a.id);
  }
  return nullptr;
}

const Rule* Registry::rule(std::string_view name) const {
  const RuleInfo* info = find(name);
  for (const auto& r : rules_) {
    if (&r->info() == info) return r.get();
  }
  return nullptr;
}

std::vector<std::string_view> Registry::aliases_of(std::string_view id) const {
  std::vector<std::string_view> out;
  for (const auto& a : aliases_) {
    if (a.id == id) out.push_back(a.name);
  }
  return out;
}

std::string_view rule_family(std::string_view id) {
  static constexpr std::pair<std::string_view, std::string_view> kFamilies[] = {
      {"ND10", "input"},     {"ND11", "health"}, {"ND20", "topology"}, {"ND21", "rail"},   {"ND30", "transport"},
      {"ND31", "config"},    {"ND40", "hardware"}, {"ND50", "cluster"}, {"ND60", "gpu"}};
  for (const auto& [prefix, family] : kFamilies) {
    if (id.starts_with(prefix)) return family;
  }
  return "other";
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

const RuleInfo* Registry::suggest(std::string_view name) const {
  if (name.empty()) return nullptr;
  // A typo costs about one edit per three characters; more is a different word.
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  const RuleInfo* best = nullptr;
  size_t best_distance = limit + 1;
  auto consider = [&](std::string_view candidate, std::string_view id) {
    size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = find(id);
    }
  };
  for (const RuleInfo* r : infos_) {
    consider(r->id, r->id);
    consider(r->slug, r->id);
  }
  for (const auto& a : aliases_) consider(a.name, a.id);
  if (best) return best;
  auto mentioning = rules_mentioning(name);
  return mentioning.empty() ? nullptr : mentioning.front();
}

std::vector<const RuleInfo*> Registry::rules_mentioning(std::string_view word) const {
  std::vector<std::pair<int, const RuleInfo*>> ranked;
  if (word.size() < 4) return {};
  for (const RuleInfo* r : infos_) {
    std::string_view slug = r->slug;
    auto it = std::search(slug.begin(), slug.end(), word.begin(), word.end(),
                          [](char x, char y) { return lower(x) == lower(y); });
    if (it == slug.end()) continue;
    size_t at = static_cast<size_t>(it - slug.begin());
    size_t end = at + word.size();
    bool whole_word = (at == 0 || slug[at - 1] == '-') && (end == slug.size() || slug[end] == '-');
    ranked.emplace_back((whole_word ? 0 : 10) + (2 - static_cast<int>(r->severity)), r);
  }
  // infos_ is in ID order and stable_sort keeps it within a rank.
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const RuleInfo*> out;
  for (const auto& [rank, r] : ranked) out.push_back(r);
  return out;
}

void register_aliases(Registry& r) {
  for (const auto& a : kRuleAliases) r.add_alias(a.name, a.id);
}

void Registry::sort_by_id() {
  std::stable_sort(rules_.begin(), rules_.end(), [](const auto& a, const auto& b) { return a->info().id < b->info().id; });
  std::stable_sort(infos_.begin(), infos_.end(), [](const RuleInfo* a, const RuleInfo* b) { return a->id < b->id; });
}

Registry Registry::only(Needs needs) const {
  Registry r;
  for (const auto& rule : rules_) {
    if (rule->info().needs == needs) r.add_shared(rule);
  }
  for (const auto& a : aliases_) {
    if (r.find(a.id)) r.aliases_.push_back(a);
  }
  return r;
}

Registry Registry::only(bool (*keep)(const RuleInfo&)) const {
  Registry r;
  for (const auto& rule : rules_) {
    if (keep(rule->info())) r.add_shared(rule);
  }
  for (const auto& a : aliases_) {
    if (r.find(a.id)) r.aliases_.push_back(a);
  }
  return r;
}

const Registry& all_rules() {
  static const Registry registry = [] {
    Registry r;
    register_input_rules(r);
    register_health_rules(r);
    register_topology_rules(r);
    register_rail_rules(r);
    register_transport_rules(r);
    register_config_rules(r);
    register_hardware_rules(r);
    register_cross_rules(r);
    register_gpu_rules(r);
    r.sort_by_id();
    register_aliases(r);
    return r;
  }();
  return registry;
}

const Registry& log_rules() {
  static const Registry registry = all_rules().only(Needs::Log);
  return registry;
}

const Registry& check_rules_with_probes() {
  static const Registry registry = all_rules().only([](const RuleInfo& info) {
    return info.needs != Needs::Cluster || info.id == "ND5002";
  });
  return registry;
}

bool RuleSelection::enabled(std::string_view id) const {
  if (disabled_.count(id)) return false;
  return !only_ || only_->count(id) > 0;
}

void RuleSelection::enable(std::string_view id) {
  if (!only_) only_.emplace();
  only_->emplace(id);
}

void RuleSelection::disable(std::string_view id) { disabled_.emplace(id); }

namespace {

// Resolves one name to rule IDs, or returns the error text.
std::optional<std::string> resolve(const Registry& registry, std::string_view option, std::string_view name,
                                   std::vector<std::string_view>& ids) {
  auto id = as_rule_id(name.substr(0, 6));
  if (id && name.size() > 6 && name[6] == '-') {
    auto last = as_rule_id(name.substr(7));
    if (!last) {
      return fmt::format("{}: bad rule range '{}': a range joins two rule IDs, e.g. ND3000-ND3999", option, name);
    }
    if (*last < *id) return fmt::format("{}: bad rule range '{}': {} comes after {}", option, name, *id, *last);
    // A well-formed range may hold no rule yet: families fill up over time.
    for (const RuleInfo* r : registry.infos()) {
      if (r->id >= *id && r->id <= *last) ids.push_back(r->id);
    }
    return std::nullopt;
  }
  if (const RuleInfo* r = registry.find(name)) {
    ids.push_back(r->id);
    return std::nullopt;
  }
  if (const RuleInfo* near = registry.suggest(name)) {
    return fmt::format("{}: unknown rule '{}'; did you mean {}?", option, name, describe(*near));
  }
  return fmt::format("{}: unknown rule '{}'; 'nccl-doctor rules' lists them", option, name);
}

std::optional<std::string> apply(const Registry& registry, std::string_view option,
                                 const std::vector<std::string>& values, bool enable, RuleSelection& out) {
  for (const auto& value : values) {
    std::string_view rest = value;
    while (true) {
      size_t comma = rest.find(',');
      std::string_view name = rest.substr(0, comma);
      while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
      while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
      if (!name.empty()) {
        std::vector<std::string_view> ids;
        if (auto err = resolve(registry, option, name, ids)) return err;
        for (auto id : ids) enable ? out.enable(id) : out.disable(id);
        // `--enable ND2000-ND2999` with no such rule yet still narrows the set.
        if (enable && ids.empty()) out.enable("");
      }
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> select_rules(const Registry& registry, const std::vector<std::string>& enable,
                                        const std::vector<std::string>& disable, RuleSelection& out) {
  if (auto err = apply(registry, "--enable", enable, true, out)) return err;
  return apply(registry, "--disable", disable, false, out);
}

}  // namespace nd
