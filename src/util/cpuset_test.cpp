#include "src/util/cpuset.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("cpu masks read as NCCL and Slurm print them") {
  CHECK(parse_cpu_mask("03f03f")->to_string() == "0-5,12-17");
  CHECK(parse_cpu_mask("ffff,ffffffff")->to_string() == "0-47");
  CHECK(parse_cpu_mask("0x3ffff00003ffff")->to_string() == "0-17,36-53");
  CHECK(parse_cpu_mask("0x1")->to_string() == "0");
  CHECK_FALSE(parse_cpu_mask("0xg1"));
  CHECK_FALSE(parse_cpu_mask(""));
}

TEST_CASE("cpu range lists read as NCCL 2.27+ prints them") {
  auto s = parse_cpu_list("0-23,48-71");
  REQUIRE(s);
  CHECK(s->count() == 48);
  CHECK(s->to_string() == "0-23,48-71");
  CHECK(parse_cpu_list("5")->to_string() == "5");
  CHECK_FALSE(parse_cpu_list("3-1"));
  CHECK_FALSE(parse_cpu_list("a"));
  CHECK(parse_cpu_list("0-1000000")->count() == CpuSet::kMaxCpus);
  CHECK(parse_cpu_list("0-3")->intersects(*parse_cpu_list("3-5")));
  CHECK_FALSE(parse_cpu_list("0-3")->intersects(*parse_cpu_list("4-5")));
}
