#include "src/util/name_set.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace nd;

TEST_CASE("NameSet holds each name once, whatever its length") {
  NameSet set;
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) names.push_back(fmt::format("{}{}", std::string(static_cast<size_t>(i % 23), 'n'), i));
  names.push_back("");
  for (const auto& n : names) CHECK(set.insert(n));
  for (const auto& n : names) CHECK_FALSE(set.insert(n));
  CHECK(set.size() == names.size());
  for (const auto& n : names) CHECK(set.contains(n));
  CHECK_FALSE(set.contains("node0001"));
  CHECK_FALSE(set.contains("nnnnnnnnnnnnnnnnnnnnnn9999"));
}

TEST_CASE("an owned NameSet outlives the strings it was filled from") {
  NameSet set;
  {
    std::vector<std::string> names = {"gpu01", "gpu02", "a-very-long-host-name.cluster.example.org"};
    for (const auto& n : names) set.insert(n);
    set.own();
  }
  NameSet moved = std::move(set);
  CHECK(moved.contains("gpu01"));
  CHECK(moved.contains("gpu02"));
  CHECK(moved.contains("a-very-long-host-name.cluster.example.org"));
  CHECK_FALSE(moved.contains("gpu03"));
  moved.clear();
  CHECK_FALSE(moved.contains("gpu01"));
  CHECK(moved.size() == 0);
}

TEST_CASE("NameSet tells apart names that share their first and last eight bytes") {
  NameSet set;
  CHECK(set.insert("rack01-node-a-001.cluster"));
  CHECK(set.insert("rack01-node-b-001.cluster"));
  CHECK(set.insert("abcdefghXabcdefgh"));
  CHECK(set.insert("abc"));
  CHECK(set.insert("abcd"));
  CHECK(set.insert("abcde"));
  CHECK(set.contains("rack01-node-a-001.cluster"));
  CHECK(set.contains("rack01-node-b-001.cluster"));
  CHECK_FALSE(set.contains("rack01-node-c-001.cluster"));
  CHECK_FALSE(set.contains("abcdefghYabcdefgh"));
  CHECK_FALSE(set.contains("abcdefghabcdefgh"));
  CHECK_FALSE(set.contains("abd"));
  CHECK_FALSE(set.contains("ab"));
  CHECK_FALSE(set.contains("abce"));
  CHECK(set.size() == 6);
}
