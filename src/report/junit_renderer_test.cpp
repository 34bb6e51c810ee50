#include <doctest/doctest.h>

#include "checks/registry.h"
#include "src/report/junit_renderer.h"

using namespace nd;

TEST_CASE("xml_escape: markup characters") {
  CHECK(xml_escape("a<b>&\"c'd") == "a&lt;b&gt;&amp;&quot;c&apos;d");
  CHECK(xml_escape("]]>") == "]]&gt;");
  CHECK(xml_escape("") == "");
}

TEST_CASE("xml_escape: whitespace controls survive as references") {
  CHECK(xml_escape("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d");
}

TEST_CASE("xml_escape: every other C0 control and DEL becomes visible text") {
  for (int c = 0; c < 0x20; ++c) {
    if (c == '\t' || c == '\n' || c == '\r') continue;
    std::string in(1, static_cast<char>(c));
    char expected[8];
    std::snprintf(expected, sizeof expected, "\\x%02x", c);
    CHECK(xml_escape(in) == expected);
  }
  CHECK(xml_escape(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(xml_escape("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(xml_escape("\x7f") == "\\x7f");
}

TEST_CASE("xml_escape: UTF-8 kept, C1 as references, invalid bytes and non-characters visible") {
  CHECK(xml_escape("gpu\xC3\xA9-\xE2\x80\x94-\xF0\x9F\x98\x80") == "gpu\xC3\xA9-\xE2\x80\x94-\xF0\x9F\x98\x80");
  CHECK(xml_escape("\xC2\x85") == "&#133;");              // NEL, a C1 control
  CHECK(xml_escape("\xEF\xBF\xBE") == "\\ufffe");          // U+FFFE
  CHECK(xml_escape("\xEF\xBF\xBF") == "\\uffff");          // U+FFFF
  CHECK(xml_escape("\xFF") == "\\xff");                    // never valid
  CHECK(xml_escape("\xC0\xAF") == "\\xc0\\xaf");           // overlong '/'
  CHECK(xml_escape("\xED\xA0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(xml_escape("\xF4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
  CHECK(xml_escape("\xE2\x80") == "\\xe2\\x80");           // cut short
}

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

class TopoRule final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2001", "ring-not-closed", Severity::Error, Needs::Log, "rings"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext&, FindingSink&) const override {}
};

}  // namespace

TEST_CASE("junit: a suite per communicator plus the job, a case per enabled rule") {
  Registry r;
  r.add<TopoRule>();
  r.add<SocketRule>();
  r.add<ShmRule>();
  CheckReport report;
  CommSummary comm;
  comm.key = "0xabc";
  report.summary.comms.push_back(comm);
  Finding socket;
  socket.id = "ND3001";
  socket.slug = "inter-node-socket";
  socket.severity = Severity::Error;
  socket.message = "rank 7 on <gpu&009> -> rank 8 on gpu028";
  socket.comm = "0xabc";
  socket.evidence.push_back({"job.log", 12, "gpu009:1:1 [7] NCCL INFO \"quoted\"\x01"});
  Finding shm = socket;
  shm.id = "ND3002";
  shm.slug = "intra-node-shm";
  shm.severity = Severity::Warning;
  shm.message = "rank 0 -> rank 1 on gpu009, via SHM";
  shm.evidence.clear();
  report.findings = {socket, shm};
  report.gaps.push_back({"the log has no GRAPH lines", "NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH", {"ND2"}});
  RuleSelection selection;

  CHECK(render_junit(report, r, selection, FailOn::Error) ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"nccl-doctor check\" tests=\"6\" failures=\"1\" errors=\"0\" skipped=\"2\">\n"
        "  <testsuite name=\"job\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"1\">\n"
        "    <testcase classname=\"nccl-doctor.job\" name=\"ND2001 ring-not-closed\">\n"
        "      <skipped message=\"inconclusive: the log has no GRAPH lines\">the log has no GRAPH lines; rerun "
        "with: NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH&#10;</skipped>\n"
        "    </testcase>\n"
        "    <testcase classname=\"nccl-doctor.job\" name=\"ND3001 inter-node-socket\"/>\n"
        "    <testcase classname=\"nccl-doctor.job\" name=\"ND3002 intra-node-shm\"/>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"communicator 0xabc\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">\n"
        "    <testcase classname=\"nccl-doctor.communicator 0xabc\" name=\"ND2001 ring-not-closed\">\n"
        "      <skipped message=\"inconclusive: the log has no GRAPH lines\">the log has no GRAPH lines; rerun "
        "with: NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH&#10;</skipped>\n"
        "    </testcase>\n"
        "    <testcase classname=\"nccl-doctor.communicator 0xabc\" name=\"ND3001 inter-node-socket\">\n"
        "      <failure message=\"rank 7 on &lt;gpu&amp;009&gt; -&gt; rank 8 on gpu028\" type=\"error\">error: rank "
        "7 on &lt;gpu&amp;009&gt; -&gt; rank 8 on gpu028 [ND3001 inter-node-socket]&#10;    job.log:12: "
        "gpu009:1:1 [7] NCCL INFO &quot;quoted&quot;\\x01&#10;</failure>\n"
        "    </testcase>\n"
        "    <testcase classname=\"nccl-doctor.communicator 0xabc\" name=\"ND3002 intra-node-shm\">\n"
        "      <system-out>warning: rank 0 -&gt; rank 1 on gpu009, via SHM [ND3002 intra-node-shm]&#10;"
        "</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");

  SUBCASE("--fail-on warning fails the SHM case; disabled rules have no case") {
    RuleSelection only;
    only.enable("ND3002");
    std::string xml = render_junit(report, r, only, FailOn::Warning);
    CHECK(xml.find("ND3001") == std::string::npos);
    CHECK(xml.find("ND2001") == std::string::npos);
    CHECK(xml.find("<failure message=\"rank 0 -&gt; rank 1 on gpu009, via SHM\" type=\"warning\">") !=
          std::string::npos);
    CHECK(xml.find("tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\"") != std::string::npos);
  }

  SUBCASE("unreadable inputs are errors of the job suite") {
    report.input_errors.push_back("cannot open 'x<1>.log': No such file or directory");
    std::string xml = render_junit(report, r, selection, FailOn::Error);
    CHECK(xml.find("    <testcase classname=\"nccl-doctor.job\" name=\"input\">\n"
                   "      <error message=\"cannot open &apos;x&lt;1&gt;.log&apos;: No such file or directory\" "
                   "type=\"input\">") != std::string::npos);
    CHECK(xml.find("<testsuites name=\"nccl-doctor check\" tests=\"7\" failures=\"1\" errors=\"1\" skipped=\"2\">") !=
          std::string::npos);
  }
}
