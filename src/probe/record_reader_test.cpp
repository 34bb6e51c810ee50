#include "src/probe/record_reader.h"

#include <doctest/doctest.h>

#include "src/probe/snapshot_json.h"

using namespace nd;

namespace {

std::string record(const std::string& host, uint32_t rank) {
  NodeSnapshot n;
  n.host.host = host;
  n.host.rank = rank;
  n.verbs.status = "no-devices";
  return snapshot_record_line(n);
}

}  // namespace

TEST_CASE("plain records, one per line, with launcher chatter around them") {
  std::string in = "Warning: Permanently added 'n1'\n" + record("n1", 0) + "\n" + record("n2", 1) + "\n";
  RecordSet s = read_probe_records(in);
  REQUIRE(s.records.size() == 2);
  CHECK(s.records[0].node.host.host == "n1");
  CHECK(s.records[1].line == 3);
  CHECK(s.problems.empty());
}

TEST_CASE("Open MPI tags and srun labels are stripped") {
  std::string in = "[1,0]<stdout>:" + record("a", 0) + "\n[1,1]<stdout>: " + record("b", 1) + "\n" + " 2: " +
                   record("c", 2) + "\n";
  RecordSet s = read_probe_records(in);
  REQUIRE(s.records.size() == 3);
  CHECK(s.records[0].launcher_rank == 0u);
  CHECK(s.records[2].node.host.host == "c");
}

TEST_CASE("srun splits long lines into labelled pieces, interleaved with other ranks") {
  std::string a = record("a", 0), b = record("b", 1);
  std::string in = " 0: " + a.substr(0, 100) + "\n 1: " + b.substr(0, 50) + "\n 0: " + a.substr(100) + "\n 1: " +
                   b.substr(50) + "\n";
  RecordSet s = read_probe_records(in);
  REQUIRE(s.records.size() == 2);
  CHECK(s.records[0].node.host.host == "a");
  CHECK(s.records[1].node.host.host == "b");
  CHECK(s.problems.empty());
}

TEST_CASE("pretty-printed records span lines") {
  NodeSnapshot n;
  n.host.host = "pretty";
  n.verbs.status = "ok";
  RecordSet s = read_probe_records(snapshot_to_json(n).dump(2) + "\n");
  REQUIRE(s.records.size() == 1);
  CHECK(s.records[0].node.host.host == "pretty");
}

TEST_CASE("truncated, foreign and broken records are problems with line numbers") {
  std::string good = record("ok", 0);
  std::string in = good.substr(0, 40) + "\n" +              // cut short, then a new record
                   good + "\n" +                             //
                   "{\"schema\":\"other-tool/3\",\"x\":1}\n" +  // foreign
                   "{\"hello\": }\n" +                        // not JSON
                   "{\"schema\":\"nccl-doctor.probe/1\",\"host\":{\"host\":\"h\"},\"verbs\":{}";  // truncated at EOF
  RecordSet s = read_probe_records(in);
  REQUIRE(s.records.size() == 1);
  REQUIRE(s.problems.size() == 4);
  CHECK(s.problems[0].line == 1);
  CHECK(s.problems[0].error == "truncated record (a new record started before it closed)");
  CHECK(s.problems[1].line == 3);
  CHECK(s.problems[1].error == "schema 'other-tool/3' is not nccl-doctor.probe/1");
  CHECK(s.problems[2].error == "not valid JSON");
  CHECK(s.problems[3].line == 5);
  CHECK(s.problems[3].error == "truncated record (no closing brace before end of input)");
}

TEST_CASE("braces inside strings do not close a record; binary junk does not crash") {
  NodeSnapshot n;
  n.host.host = "we{ird}\"host";
  n.verbs.status = std::string("ok");
  RecordSet s = read_probe_records(snapshot_record_line(n) + "\n\x01\x02{{{\xff\n");
  REQUIRE(s.records.size() == 1);
  CHECK(s.records[0].node.host.host == "we{ird}\"host");
  CHECK(s.problems.size() == 1);
}
