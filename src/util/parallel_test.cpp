#include "src/util/parallel.h"

#include <atomic>
#include <stdexcept>
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
