#include "parsers/binding.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("Open MPI 4 --report-bindings: core binding with its map") {
  auto b = parse_binding(
      "[a03.alembert:25635] MCW rank 2 bound to socket 0[core 0[hwt 0-1]]: "
      "[BB/../../../../../../../../..][../../../../../../../../../..]");
  REQUIRE(b);
  CHECK(b->source == BindingSource::OpenMpi);
  CHECK(b->host == "a03.alembert");
  CHECK(b->task == 2);
  CHECK_FALSE(b->unbound);
  CHECK(b->unit == CpuUnit::MapPosition);
  CHECK(b->cpus.to_string() == "0-1");
  CHECK_FALSE(b->whole_sockets);
}

TEST_CASE("Open MPI 4: socket binding, hwt binding, 1.6 map and unbound ranks") {
  auto s = parse_binding("[gpu01:4410] MCW rank 1 bound to socket 1[core 2[hwt 0-1]], socket 1[core 3[hwt 0-1]]: "
                         "[../..][BB/BB]");
  REQUIRE(s);
  CHECK(s->cpus.to_string() == "4-7");
  CHECK(s->whole_sockets);
  auto h = parse_binding("[host:1] MCW rank 1 bound to socket 0[core 0[hwt 1]]: [.B/../..]");
  REQUIRE(h);
  CHECK(h->cpus.to_string() == "1");
  auto old = parse_binding("[node1:12362] MCW rank 0 bound to socket 0[core 0]: [B . . . . . . .][. . . . . . . .] "
                           "(slot list 0:0)");
  REQUIRE(old);
  CHECK(old->cpus.to_string() == "0");
  auto u = parse_binding("[gpu01:4410] MCW rank 3 is not bound (or bound to all available processors)");
  REQUIRE(u);
  CHECK(u->unbound);
  CHECK(u->task == 3);
}

TEST_CASE("Open MPI 5 (PRRTE) --report-bindings") {
  auto b = parse_binding("[node701.hydra.os:3333100] Rank 0 bound to package[0][core:2]");
  REQUIRE(b);
  CHECK(b->source == BindingSource::Prrte);
  CHECK(b->unit == CpuUnit::LogicalCore);
  CHECK(b->cpus.to_string() == "2");
  auto two = parse_binding("[gpu01:5000] Rank 4 bound to package[0][core:0-31] package[1][core:L32-63]");
  REQUIRE(two);
  CHECK(two->cpus.to_string() == "0-63");
  auto rc1 = parse_binding("MCW rank 0 bound to package[0][core:0-31]");
  REQUIRE(rc1);
  CHECK(rc1->host.empty());
  auto u = parse_binding("[gpu01:5000] Rank 7 is not bound (or bound to all available processors)");
  REQUIRE(u);
  CHECK(u->unbound);
}

TEST_CASE("Slurm --cpu-bind=verbose masks are OS CPU ids") {
  auto b = parse_binding("cpu-bind=MASK - quartz42, task  0  0 [78871]: mask 0x3ffff00003ffff set");
  REQUIRE(b);
  CHECK(b->source == BindingSource::Slurm);
  CHECK(b->host == "quartz42");
  CHECK(b->pid == 78871);
  CHECK(b->cpus.to_string() == "0-17,36-53");
  CHECK_FALSE(b->unbound);
  auto old = parse_binding("cpu_bind=MASK - s04r2b57, task 12  0 [143140]: mask 0x1 set");
  REQUIRE(old);
  CHECK(old->task == 12);
  auto none = parse_binding("cpu-bind=NONE - s04r2b57, task  1  1 [143141]: mask 0xffffffff set");
  REQUIRE(none);
  CHECK(none->unbound);
}

TEST_CASE("binding needle and lines that are not reports") {
  CHECK(has_binding_needle("MCW rank 2 bound to socket"));
  CHECK(has_binding_needle("cpu-bind=MASK - n, task 0 0 [1]: mask 0x1 set"));
  CHECK(has_binding_needle("cpu_bind=MASK"));
  CHECK_FALSE(has_binding_needle("epoch 0 step 10 loss 2.3"));
  CHECK_FALSE(parse_binding("the job is bound to fail"));
  CHECK_FALSE(parse_binding("[h:1] MCW rank 2 bound to socket 0: [BB/..]["));
}
