#include <doctest/doctest.h>

#include "checks/registry.h"

using namespace nd;

namespace {

class SocketRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3001", "inter-node-socket", Severity::Error, Needs::Log, "sockets"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

class ShmRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3002", "intra-node-shm", Severity::Warning, Needs::Log, "shm"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

class InputRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1001", "unrecognized-lines", Severity::Info, Needs::Log, "unknown"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

class PortRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND4003", "port-not-active", Severity::Error, Needs::Node, "ports"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

Registry test_registry() {
  Registry r;
  r.add<InputRule>();
  r.add<SocketRule>();
  r.add<ShmRule>();
  r.add_alias("tcp-between-nodes", "ND3001");
  return r;
}

// The enabled IDs of a selection over the test registry, or the error.
std::string selected(const std::vector<std::string>& enable, const std::vector<std::string>& disable) {
  Registry r = test_registry();
  RuleSelection s;
  if (auto err = select_rules(r, enable, disable, s)) return *err;
  std::string out;
  for (const auto& rule : r.rules()) {
    if (s.enabled(rule->info().id)) out += std::string(out.empty() ? "" : " ") + std::string(rule->info().id);
  }
  return out;
}

}  // namespace

TEST_CASE("find takes IDs in any case, slugs and aliases") {
  Registry r = test_registry();
  CHECK(r.find("ND3001") == &r.rules()[1]->info());
  CHECK(r.find("nd3001") == &r.rules()[1]->info());
  CHECK(r.find("inter-node-socket") == &r.rules()[1]->info());
  CHECK(r.find("tcp-between-nodes") == &r.rules()[1]->info());
  CHECK(r.find("ND3009") == nullptr);
  CHECK(r.find("") == nullptr);
  CHECK(r.aliases_of("ND3001") == std::vector<std::string_view>{"tcp-between-nodes"});
  CHECK(r.aliases_of("ND3002").empty());
}

TEST_CASE("rule() finds the rule itself; only() keeps the same rules of one input, with their aliases") {
  Registry r = test_registry();
  r.add<PortRule>();
  r.add_alias("port-down", "ND4003");
  r.sort_by_id();
  CHECK(r.rule("tcp-between-nodes") == r.rules()[1].get());
  CHECK(r.rule("ND4003") == r.rules()[3].get());
  CHECK(r.rule("ND4004") == nullptr);
  Registry log = r.only(Needs::Log);
  REQUIRE(log.rules().size() == 3);
  CHECK(log.rules()[1].get() == r.rules()[1].get());
  CHECK(log.infos().size() == 3);
  CHECK(log.find("ND4003") == nullptr);
  CHECK(log.find("port-down") == nullptr);
  CHECK(log.find("tcp-between-nodes") == &r.rules()[1]->info());
  Registry node = r.only(Needs::Node);
  REQUIRE(node.rules().size() == 1);
  CHECK(node.find("port-down") == &PortRule::kInfo);
  CHECK(r.only(Needs::Cluster).rules().empty());
}

TEST_CASE("the shipped alias table resolves to registered rules") {
  for (const auto& a : all_rules().aliases()) {
    INFO(a.name);
    REQUIRE(all_rules().find(a.id) != nullptr);
    CHECK(all_rules().find(a.name) == all_rules().find(a.id));
  }
}

TEST_CASE("edit distance") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("ND3001", "nd3001") == 0);
  CHECK(edit_distance("ND301", "ND3001") == 1);
  CHECK(edit_distance("inter-node-sockets", "inter-node-socket") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("suggestions for typos in IDs, slugs and aliases") {
  Registry r = test_registry();
  CHECK(r.suggest("ND3010") == &r.rules()[1]->info());
  CHECK(r.suggest("inter-node-sockets") == &r.rules()[1]->info());
  CHECK(r.suggest("intra-node-shn") == &r.rules()[2]->info());
  CHECK(r.suggest("tcp-between-node") == &r.rules()[1]->info());
  CHECK(r.suggest("socket") == &r.rules()[1]->info());  // a fragment of a slug
  CHECK(r.suggest("gpu-direct-everywhere") == nullptr);
  CHECK(r.suggest("") == nullptr);
}

TEST_CASE("a word finds the rules whose slug holds it, the most severe first") {
  const Registry& r = all_rules();
  auto socket = r.rules_mentioning("socket");
  REQUIRE(socket.size() >= 3);
  // Errors by ID, then ND2009 cross-socket-traffic (a warning).
  CHECK(socket[0]->id == "ND3001");
  CHECK(socket[1]->id == "ND3006");
  CHECK(socket[2]->id == "ND2009");
  CHECK(r.suggest("socket")->id == "ND3001");
  CHECK(r.rules_mentioning("soc").empty());
  CHECK(r.rules_mentioning("nonsense").empty());
}

TEST_CASE("selection: everything by default, --enable narrows, --disable removes") {
  CHECK(selected({}, {}) == "ND1001 ND3001 ND3002");
  CHECK(selected({"ND3001"}, {}) == "ND3001");
  CHECK(selected({"ND3000-ND3999"}, {"intra-node-shm"}) == "ND3001");
  CHECK(selected({"ND1001,intra-node-shm"}, {}) == "ND1001 ND3002");
  CHECK(selected({"ND1001", "ND3002"}, {}) == "ND1001 ND3002");
  CHECK(selected({}, {"ND3000-ND3999"}) == "ND1001");
  CHECK(selected({}, {"tcp-between-nodes", " nd3002 ,"}) == "ND1001");
  CHECK(selected({"ND3001-ND3001"}, {}) == "ND3001");
  // A well-formed range with no rule in it yet is no error, and still narrows.
  CHECK(selected({}, {"ND2000-ND2999"}) == "ND1001 ND3001 ND3002");
  CHECK(selected({"ND2000-ND2999"}, {}) == "");
}

TEST_CASE("selection errors name the option and suggest the closest rule") {
  CHECK(selected({}, {"inter-node-sockets"}) ==
        "--disable: unknown rule 'inter-node-sockets'; did you mean ND3001 (inter-node-socket)?");
  CHECK(selected({"ND3010"}, {}) == "--enable: unknown rule 'ND3010'; did you mean ND3001 (inter-node-socket)?");
  CHECK(selected({"ND3001,bogus-rule-name"}, {}) ==
        "--enable: unknown rule 'bogus-rule-name'; 'nccl-doctor rules' lists them");
  CHECK(selected({"ND3999-ND3000"}, {}) == "--enable: bad rule range 'ND3999-ND3000': ND3999 comes after ND3000");
  CHECK(selected({}, {"ND3000-socket"}) ==
        "--disable: bad rule range 'ND3000-socket': a range joins two rule IDs, e.g. ND3000-ND3999");
}

TEST_CASE("every rule belongs to a named family") {
  for (const RuleInfo* r : all_rules().infos()) {
    CAPTURE(r->id);
    CHECK(rule_family(r->id) != "other");
  }
  CHECK(rule_family("ND3001") == "transport");
  CHECK(rule_family("ND1100") == "health");
  CHECK(rule_family("ND5004") == "cluster");
}
