// Probe records among check's inputs: picked out of mixed input, with and
// without launcher prefixes, put back together from srun's pieces.
#include "src/model/probe_records.h"

#include <doctest/doctest.h>

#include "src/model/model_fixture.h"
#include "src/probe/snapshot_json.h"

using namespace nd;

namespace {

std::string record(const std::string& host, const std::string& message = "") {
  NodeSnapshot n;
  n.host.host = host;
  n.verbs.status = "no-devices";
  n.verbs.message = message;
  return snapshot_record_line(n);
}

constexpr std::string_view kNccl = "gpu009:2771:2771 [0] NCCL INFO NET/IB : No device found.";

std::vector<std::string> hosts_of(const JobModel& m) {
  std::vector<std::string> out;
  for (const auto& r : m.probe_records) out.push_back(r.host);
  return out;
}

}  // namespace

TEST_CASE("a record line among NCCL lines is a probe record, cited by its host") {
  std::string rec = record("gpu009");
  JobModel m = model_from({kNccl, rec, kNccl});
  REQUIRE(m.probe_records.size() == 1);
  CHECK(m.probe_records[0].host == "gpu009");
  CHECK(m.probe_records[0].line == LineRef{0, 2});
  CHECK(m.probe_records[0].node.verbs.status == "no-devices");
  CHECK(m.counters.nccl_lines == 2);
  REQUIRE(m.text_of(LineRef{0, 2}));
  CHECK(*m.text_of(LineRef{0, 2}) == "gpu009: nccl-doctor probe record");
  CHECK(m.probe_problems.empty());
  CHECK(m.gpu_side.input_kinds.empty());
}

TEST_CASE("launcher prefixes come off a record: srun labels, Open MPI tags, pdsh hosts") {
  std::string a = record("gpu009"), b = record("gpu028"), c = record("");
  JobModel m = model_from({"3: " + a, "[1,4]<stdout>:" + b, "gpu031: " + c});
  CHECK(hosts_of(m) == std::vector<std::string>{"gpu009", "gpu028", "gpu031"});
  CHECK(m.probe_problems.empty());
}

TEST_CASE("srun's 1 KiB pieces of two ranks, interleaved with NCCL lines, make two records") {
  // Pieces cut where a string holds ": ", which a looser reader takes for a host prefix.
  std::string a = record("gpu009", "cannot load libibverbs.so.1: no such file"), b = record("gpu028");
  size_t cut = a.find("libibverbs.so.1: ");
  REQUIRE(cut != std::string::npos);
  std::vector<std::string> lines = {" 0: " + a.substr(0, cut), " 1: " + b.substr(0, 40), std::string(kNccl),
                                    " 0: " + a.substr(cut), " 1: " + b.substr(40)};
  JobModel m = model_from_lines(lines);
  CHECK(hosts_of(m) == std::vector<std::string>{"gpu009", "gpu028"});
  CHECK(m.probe_records[0].line == LineRef{0, 1});
  CHECK(m.probe_records[0].node.verbs.message == "cannot load libibverbs.so.1: no such file");
  CHECK(m.probe_records[1].line == LineRef{0, 2});
  CHECK(m.counters.nccl_lines == 1);
  CHECK(m.probe_problems.empty());
}

TEST_CASE("a record without a host takes the file's (HOST=FILE); a host's later records are counted") {
  JobModel m;
  ModelBuilder builder(m);
  uint32_t f = builder.add_file("probe.json", "gpu031");
  std::string a = record(""), b = record("");
  builder.add_line(f, Line{a, 1, false});
  builder.add_line(f, Line{b, 2, false});
  builder.finish();
  CHECK(hosts_of(m) == std::vector<std::string>{"gpu031"});
  CHECK(m.probe_records_repeated == 1);
}

TEST_CASE("records cut short or not ours are problems, not fatal; other lines stay other tools'") {
  std::string a = record("gpu009");
  std::string foreign = R"({"schema":"nccl-doctor.probe/9","host":{}})";
  std::vector<std::string> lines = {a.substr(0, 200),  // cut without a launcher label: lost its end
                                    " 2: " + a.substr(0, 300), " 2: " + a,  // a fresh record before the first closed
                                    foreign, R"({"schema":"other-tool/1"})", " 5: " + a.substr(0, 30)};
  JobModel m = model_from_lines(lines);
  CHECK(hosts_of(m) == std::vector<std::string>{"gpu009"});
  REQUIRE(m.probe_problems.size() == 4);
  CHECK(m.probe_problems[0].line == LineRef{0, 1});
  CHECK(m.probe_problems[0].error ==
        "truncated record (it does not close on its line; lines longer than 64 KiB are cut)");
  CHECK(m.probe_problems[1].line == LineRef{0, 2});
  CHECK(m.probe_problems[1].error == "truncated record (a new record started before it closed)");
  CHECK(m.probe_problems[2].line == LineRef{0, 4});
  CHECK(m.probe_problems[2].error.find("nccl-doctor.probe/9") != std::string::npos);
  CHECK(m.probe_problems[3].line == LineRef{0, 6});
  CHECK(m.probe_problems[3].error == "truncated record (no closing brace before end of input)");
  CHECK(m.probe_problems[3].excerpt == R"({"schema":"nccl-doctor.probe/1)");
}
