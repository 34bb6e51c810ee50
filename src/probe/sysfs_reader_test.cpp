#include "src/probe/sysfs_reader.h"

#include <cerrno>

#include <doctest/doctest.h>

#include "src/probe/probe_test_config.h"

using nd::SysfsReader;

TEST_CASE("attributes are read relative to the root and trimmed") {
  SysfsReader s(ND_FIXTURES "/sysfs/dgx-h100-ib");
  auto r = s.read_attr("class/infiniband/mlx5_0/ports/1/state");
  REQUIRE(r.ok());
  CHECK(r.value == "4: ACTIVE");
  CHECK(s.read_attr("/class/infiniband/mlx5_0/fw_ver").value == "28.39.1002");
}

TEST_CASE("an .errno sidecar turns into a failed read and hides from listings") {
  SysfsReader s(ND_FIXTURES "/sysfs/broken");
  auto rate = s.read_attr("class/infiniband/mlx5_3/ports/1/rate");
  CHECK(rate.error == EINVAL);
  CHECK(s.read_attr("class/infiniband/mlx5_5/ports/1/counters/port_rcv_errors").error == EACCES);
  CHECK(s.exists("class/infiniband/mlx5_3/ports/1/rate"));
  auto names = s.list_dir("class/infiniband/mlx5_0/ports/1/gid_attrs/types");
  CHECK(names == std::vector<std::string>{"0", "1", "2", "3"});
}

TEST_CASE("missing files are ENOENT, directories EISDIR") {
  SysfsReader s(ND_FIXTURES "/sysfs/no-rdma");
  CHECK(s.read("class/infiniband/mlx5_0/fw_ver").error == ENOENT);
  CHECK(s.read("devices").error == EISDIR);
  CHECK(s.list_dir("class/infiniband").empty());
  CHECK_FALSE(s.exists("class/infiniband"));
}

TEST_CASE("realpath follows relative links and stays relative to the root") {
  SysfsReader s(ND_FIXTURES "/sysfs/dgx-h100-ib");
  CHECK(s.realpath("class/infiniband/mlx5_0/device") ==
        "devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0");
  CHECK_FALSE(s.realpath("class/infiniband/mlx5_99"));
}

TEST_CASE("errno names round-trip and unknown ones say the number") {
  CHECK(nd::errno_name(EINVAL) == "EINVAL");
  CHECK(nd::errno_from_name("EACCES\n") == EACCES);
  CHECK(nd::errno_from_name("EWHAT") == 0);
  CHECK(nd::errno_name(9999) == "errno 9999");
}

TEST_CASE("accesses are recorded only when asked") {
  SysfsReader s(ND_FIXTURES "/sysfs/dgx-h100-ib");
  (void)s.read_attr("class/infiniband/mlx5_0/fw_ver");
  CHECK(s.accessed().empty());
  s.record_accesses(true);
  (void)s.read_attr("class/infiniband/mlx5_0/fw_ver");
  CHECK(s.accessed().count("class/infiniband/mlx5_0/fw_ver") == 1);
}
