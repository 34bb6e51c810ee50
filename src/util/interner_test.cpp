#include "src/util/interner.h"

#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace nd;

TEST_CASE("Interner gives each string one dense id, in order of first sight") {
  Interner hosts;
  CHECK_FALSE(hosts.find("gpu01"));
  CHECK(hosts.intern("gpu01") == 0);
  CHECK(hosts.intern("gpu02") == 1);
  CHECK(hosts.intern("gpu01") == 0);
  CHECK(hosts.intern("") == 2);
  CHECK(hosts.find("gpu02") == 1u);
  CHECK(hosts.find("") == 2u);
  CHECK_FALSE(hosts.find("gpu03"));
  CHECK(hosts.name(1) == "gpu02");
  CHECK(hosts.size() == 3);
}

TEST_CASE("Interner keeps its ids through growth, for names alike at both ends") {
  Interner texts;
  for (int i = 0; i < 5000; ++i) CHECK(texts.intern(fmt::format("NET/IB/{}/GDRDMA/{:04}/x", i % 7, i)) == static_cast<uint32_t>(i));
  for (int i = 0; i < 5000; ++i) CHECK(texts.find(fmt::format("NET/IB/{}/GDRDMA/{:04}/x", i % 7, i)) == static_cast<uint32_t>(i));
  CHECK(texts.names().size() == 5000);
  CHECK(texts.names()[4999] == "NET/IB/1/GDRDMA/4999/x");
  CHECK_FALSE(texts.find("NET/IB/0/GDRDMA/5000/x"));
  Interner copy = texts;
  CHECK(copy.find("NET/IB/3/GDRDMA/0010/x") == 10u);
}

TEST_CASE("Interner renames an id in place: the old name is gone, the id stays") {
  Interner hosts;
  hosts.intern("pgds-aihub0007");
  hosts.intern("gpu02");
  hosts.rename(0, "tpgds-aihub0007");
  CHECK(hosts.find("tpgds-aihub0007") == 0u);
  CHECK_FALSE(hosts.find("pgds-aihub0007"));
  CHECK(hosts.find("gpu02") == 1u);
  CHECK(hosts.name(0) == "tpgds-aihub0007");
  CHECK(hosts.intern("pgds-aihub0007") == 2);
}
