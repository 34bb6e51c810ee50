#include <doctest/doctest.h>

#include "checks/registry.h"
#include "src/report/junit_renderer.h"

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
  judge(report, r, selection, FailOn::Error);

  CHECK(render_junit(report) ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"nccl-doctor check\" tests=\"6\" failures=\"1\" errors=\"0\" skipped=\"2\">\n"
        "  <testsuite name=\"job\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"1\">\n"
        "    <testcase classname=\"nccl-doctor.job\" name=\"ND2001 ring-not-closed\">\n"
        "      <skipped message=\"inconclusive: the log has no GRAPH lines\">the log has no GRAPH lines; rerun "
        "with: NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH\n</skipped>\n"
        "    </testcase>\n"
        "    <testcase classname=\"nccl-doctor.job\" name=\"ND3001 inter-node-socket\"/>\n"
        "    <testcase classname=\"nccl-doctor.job\" name=\"ND3002 intra-node-shm\"/>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"communicator 0xabc\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">\n"
        "    <testcase classname=\"nccl-doctor.communicator 0xabc\" name=\"ND2001 ring-not-closed\">\n"
        "      <skipped message=\"inconclusive: the log has no GRAPH lines\">the log has no GRAPH lines; rerun "
        "with: NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH\n</skipped>\n"
        "    </testcase>\n"
        "    <testcase classname=\"nccl-doctor.communicator 0xabc\" name=\"ND3001 inter-node-socket\">\n"
        "      <failure message=\"rank 7 on &lt;gpu&amp;009&gt; -&gt; rank 8 on gpu028\" type=\"error\">error: rank "
        "7 on &lt;gpu&amp;009&gt; -&gt; rank 8 on gpu028 [ND3001 inter-node-socket]\n    job.log:12: "
        "gpu009:1:1 [7] NCCL INFO &quot;quoted&quot;\\x01\n</failure>\n"
        "    </testcase>\n"
        "    <testcase classname=\"nccl-doctor.communicator 0xabc\" name=\"ND3002 intra-node-shm\">\n"
        "      <system-out>warning: rank 0 -&gt; rank 1 on gpu009, via SHM [ND3002 intra-node-shm]\n"
        "</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");

  SUBCASE("--fail-on warning fails the SHM case; disabled rules have no case") {
    RuleSelection only;
    only.enable("ND3002");
    judge(report, r, only, FailOn::Warning);
    std::string xml = render_junit(report);
    CHECK(xml.find("ND3001") == std::string::npos);
    CHECK(xml.find("ND2001") == std::string::npos);
    CHECK(xml.find("<failure message=\"rank 0 -&gt; rank 1 on gpu009, via SHM\" type=\"warning\">") !=
          std::string::npos);
    CHECK(xml.find("tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\"") != std::string::npos);
  }

  SUBCASE("unreadable inputs are errors of the job suite") {
    report.input_errors.push_back("cannot open 'x<1>.log': No such file or directory");
    std::string xml = render_junit(report);
    CHECK(xml.find("    <testcase classname=\"nccl-doctor.job\" name=\"input\">\n"
                   "      <error message=\"cannot open &apos;x&lt;1&gt;.log&apos;: No such file or directory\" "
                   "type=\"input\">") != std::string::npos);
    CHECK(xml.find("<testsuites name=\"nccl-doctor check\" tests=\"7\" failures=\"1\" errors=\"1\" skipped=\"2\">") !=
          std::string::npos);
  }
}
