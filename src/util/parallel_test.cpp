#include "src/util/parallel.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("run_parallel calls every task once, on any number of threads") {
  for (size_t threads : {1, 2, 5}) {
    std::vector<std::atomic<int>> calls(37);
    run_parallel(calls.size(), threads, [&](size_t i) { ++calls[i]; });
    for (const auto& c : calls) CHECK(c.load() == 1);
  }
  run_parallel(0, 4, [](size_t) { FAIL("no task to run"); });
}

TEST_CASE("run_parallel rethrows a task's exception after the others ran") {
  std::atomic<int> ran{0};
  CHECK_THROWS_WITH(run_parallel(10, 2,
                                 [&](size_t i) {
                                   ++ran;
                                   if (i == 3) throw std::runtime_error("task 3 failed");
                                 }),
                    "task 3 failed");
  CHECK(ran.load() == 10);
}

TEST_CASE("worker_threads stays within its cap") {
  CHECK(worker_threads(1) == 1);
  CHECK(worker_threads(0) == 1);
  CHECK(worker_threads(64) >= 1);
}

namespace {

// A sysfs cpu tree: for each cpu, its caches as (level, shared_cpu_list).
std::string fake_cpu_tree(const std::string& name, const std::vector<std::vector<std::pair<int, std::string>>>& cpus) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("nd-cpus-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (size_t cpu = 0; cpu < cpus.size(); ++cpu) {
    fs::create_directories(root / ("cpu" + std::to_string(cpu)));
    for (size_t index = 0; index < cpus[cpu].size(); ++index) {
      fs::path dir = root / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(index));
      fs::create_directories(dir);
      std::ofstream(dir / "level") << cpus[cpu][index].first << "\n";
      std::ofstream(dir / "shared_cpu_list") << cpus[cpu][index].second << "\n";
    }
  }
  return root.string();
}

}  // namespace

TEST_CASE("cpus_share_cache reads sysfs's cache lists") {
  const std::vector<unsigned> both = {0, 1};
  // Two cores, each with its own L1 and L2, one L3 for both.
  std::string shared_l3 = fake_cpu_tree("l3", {{{1, "0"}, {1, "0"}, {2, "0"}, {3, "0-1"}},
                                               {{1, "1"}, {1, "1"}, {2, "1"}, {3, "0-1"}}});
  CHECK(cpus_share_cache(shared_l3, both));
  // Hyperthreads: one L1 and L2 for both, listed as "0,1".
  std::string siblings = fake_cpu_tree("smt", {{{1, "0,1"}, {2, "0,1"}}, {{1, "0,1"}, {2, "0,1"}}});
  CHECK(cpus_share_cache(siblings, both));
  // A shared L1 alone does not count, nor does a shared cache with a cpu
  // this process may not run on.
  std::string own = fake_cpu_tree("own", {{{1, "0-1"}, {2, "0"}, {3, "0,2-3"}},
                                          {{1, "0-1"}, {2, "1"}, {3, "1,4-5"}}});
  CHECK_FALSE(cpus_share_cache(own, both));
  CHECK(cpus_share_cache(own, std::vector<unsigned>{0, 3}));  // cpu0's L3 lists cpu3
  // A virtual machine that shows no cache at all.
  std::string none = fake_cpu_tree("none", {{}, {}});
  CHECK_FALSE(cpus_share_cache(none, both));
  CHECK_FALSE(cpus_share_cache(shared_l3, std::vector<unsigned>{0}));  // one cpu shares with none
  for (const auto& dir : {shared_l3, siblings, own, none}) std::filesystem::remove_all(dir);
}
