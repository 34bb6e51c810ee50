#include "src/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace nd {

size_t worker_threads(size_t cap) {
  size_t n = std::max(1u, std::thread::hardware_concurrency());
  if (const char* t = std::getenv("ND_THREADS")) n = static_cast<size_t>(std::max(1, std::atoi(t)));
  return std::clamp<size_t>(n, 1, std::max<size_t>(cap, 1));
}

void run_parallel(size_t tasks, size_t threads, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < tasks;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < std::min(threads, tasks); ++t) helpers.emplace_back(work);
  work();
  for (auto& h : helpers) h.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace nd
