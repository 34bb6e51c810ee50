#include "src/probe/expectations.h"

#include <doctest/doctest.h>

#include "src/probe/node_snapshot.h"

using namespace nd;

TEST_CASE("--expect keys") {
  Expectations e;
  CHECK(parse_expectations("hcas=8,rate=400,link=ib,gdr=yes", e) == "");
  CHECK(e.hcas == 8u);
  CHECK(e.rate == 400.0);
  CHECK(e.link == "ib");
  CHECK(e.gdr == true);
  CHECK(parse_expectations("memlock=64M, nodes=4", e) == "");
  CHECK(e.memlock == 64ull << 20);
  CHECK(e.nodes == 4u);
  CHECK(parse_expectations("memlock=unlimited", e) == "");
  CHECK(e.memlock == kMemlockUnlimited);
  CHECK(expectations_str(e) == "hcas=8,rate=400,link=ib,gdr=yes,memlock=unlimited,nodes=4");
}

TEST_CASE("bad expectations say which key and what was wanted") {
  Expectations e;
  CHECK(parse_expectations("hcas=eight", e) == "expectation hcas=eight: expected a count");
  CHECK(parse_expectations("link=omnipath", e) == "expectation link=omnipath: expected ib or roce");
  CHECK(parse_expectations("speed=400", e) ==
        "unknown expectation 'speed' (known: hcas, rate, link, gdr, memlock, gpus, nodes)");
  CHECK(parse_expectations("rate", e) == "expectation 'rate' is not key=value");
  CHECK(parse_expectations("rate=-5", e) == "expectation rate=-5: expected Gb/s, e.g. 400");
}

TEST_CASE("expectation files: one per line, comments") {
  Expectations e;
  CHECK(parse_expectations_file("# DGX H100\nhcas = 8\nrate=400  # NDR\n\nlink=ib\n", e) == "");
  CHECK(e.hcas == 8u);
  CHECK(e.link == "ib");
  CHECK(parse_expectations_file("hcas=8\ngdr=maybe\n", e) == "line 2: expectation gdr=maybe: expected yes or no");
}
