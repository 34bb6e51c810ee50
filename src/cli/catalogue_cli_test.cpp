#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "checks/registry.h"
#include "src/cli/explain_command.h"
#include "src/cli/rule_pages.h"
#include "src/cli/rules_command.h"

using namespace nd;

namespace {

class SocketRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3001", "inter-node-socket", Severity::Error, Needs::Log,
                                  "an inter-node link uses TCP sockets"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

class InputRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1001", "unrecognized-lines", Severity::Info, Needs::Log, "unknown lines"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

}  // namespace

TEST_CASE("every rule's page is embedded, byte for byte as in man/rules") {
  const std::filesystem::path root(ND_SOURCE_ROOT);
  for (const RuleInfo* rule : all_rules().infos()) {
    std::string id(rule->id);
    INFO("rule " << id);
    const RulePage* page = find_rule_page(id);
    REQUIRE(page != nullptr);
    std::stringstream text;
    text << std::ifstream(root / "man" / "rules" / (id + ".md")).rdbuf();
    CHECK(page->text == text.str());
  }
  CHECK(find_rule_page("ND0000") == nullptr);
}

TEST_CASE("explain finds pages by ID, slug and alias, and suggests on a typo") {
  std::string error;
  std::string page = explain_rule(log_rules(), "inter-node-socket", error);
  CHECK(error.empty());
  CHECK(page.starts_with("# ND3001 inter-node-socket\n"));
  CHECK(explain_rule(log_rules(), "nd3001", error) == page);
  CHECK(explain_rule(log_rules(), "inter-node-sockets", error).empty());
  CHECK(error == "unknown rule 'inter-node-sockets'; did you mean ND3001 (inter-node-socket)?");
  explain_rule(log_rules(), "frobnicate-the-widget", error);
  CHECK(error == "unknown rule 'frobnicate-the-widget'; 'nccl-doctor rules' lists them");

  Registry r;
  r.add<SocketRule>();
  r.add_alias("tcp-between-nodes", "ND3001");
  error.clear();
  CHECK(explain_rule(r, "tcp-between-nodes", error) == page);

  std::string note;
  CHECK(explain_rule(all_rules(), "socket", error, &note) == page);
  CHECK(note == "'socket': ND3001 inter-node-socket; also ND3006 socket-interface-unreachable, ND2009 cross-socket-traffic, "
              "ND4010 gpu-nic-cross-socket");
}

TEST_CASE("the catalogue holds the log rules and preflight's hardware and cluster rules, once each, in ID order") {
  const Registry& all = all_rules();
  CHECK(all.infos().size() == all.rules().size());
  std::string_view previous;
  size_t hardware = 0, cluster = 0;
  for (const RuleInfo* info : all.infos()) {
    CHECK(previous < info->id);
    previous = info->id;
    CHECK(all.find(info->slug) == info);
    hardware += info->id.starts_with("ND4");
    cluster += info->id.starts_with("ND5");
  }
  CHECK(hardware == 16);
  CHECK(cluster == 4);

  std::string error;
  CHECK(explain_rule(all, "port-not-active", error).starts_with("# ND4003 port-not-active\n"));
  CHECK(explain_rule(all, "nd5001", error).starts_with("# ND5001 node-differs-from-majority\n"));
  CHECK(error.empty());
  // check's own list stays the log rules: a preflight rule is not a check rule.
  CHECK(log_rules().find("ND4003") == nullptr);
}

TEST_CASE("the rule list: aligned text and JSON, filtered by the selection") {
  Registry r;
  r.add<InputRule>();
  r.add<SocketRule>();
  r.add_alias("tcp-between-nodes", "ND3001");
  RuleSelection all;
  CHECK(render_rules_text(r, all) ==
        "ID      slug                severity  summary\n"
        "ND1001  unrecognized-lines  info      unknown lines\n"
        "ND3001  inter-node-socket   error     an inter-node link uses TCP sockets\n");
  RuleSelection some;
  some.disable("ND1001");
  CHECK(render_rules_text(r, some) ==
        "ID      slug                severity  summary\n"
        "ND3001  inter-node-socket   error     an inter-node link uses TCP sockets\n");
  CHECK(render_rules_json(r, some) ==
        "{\n"
        "  \"rules\": [\n"
        "    {\n"
        "      \"aliases\": [\n"
        "        \"tcp-between-nodes\"\n"
        "      ],\n"
        "      \"family\": \"transport\",\n"
        "      \"fix\": \"make NCCL use RDMA: unset NCCL_IB_DISABLE / NCCL_NET=Socket, install rdma-core and its "
        "provider, check ibv_devinfo\",\n"
        "      \"id\": \"ND3001\",\n"
        "      \"needs\": \"log\",\n"
        "      \"severity\": \"error\",\n"
        "      \"slug\": \"inter-node-socket\",\n"
        "      \"summary\": \"an inter-node link uses TCP sockets\"\n"
        "    }\n"
        "  ],\n"
        "  \"schema\": \"nccl-doctor.rules/1\"\n"
        "}\n");
}
