#include "src/util/parallel.h"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "src/util/cpuset.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

size_t worker_threads(size_t cap) {
  size_t n = std::max(1u, std::thread::hardware_concurrency());
  if (const char* t = std::getenv("ND_THREADS")) n = static_cast<size_t>(std::max(1, std::atoi(t)));
  return std::clamp<size_t>(n, 1, std::max<size_t>(cap, 1));
}

bool cpus_share_cache(const std::string& cpu_root, std::span<const unsigned> cpus) {
  for (unsigned cpu : cpus) {
    // index0..: L1 data, L1 instruction, L2, L3; a machine lists 3 to 5.
    for (unsigned index = 0; index < 8; ++index) {
      std::string dir = cpu_root + "/cpu" + std::to_string(cpu) + "/cache/index" + std::to_string(index) + "/";
      std::string level = read_first_line(dir + "level");
      if (level.empty()) break;
      if (auto l = parse_u32(trim(level)); !l || *l < 2) continue;
      auto shared = parse_cpu_list(trim(read_first_line(dir + "shared_cpu_list")));
      for (unsigned other : cpus) {
        if (other != cpu && shared && shared->has(other)) return true;
      }
    }
  }
  return false;
}

bool cpus_share_cache() {
  // The answer holds for the process's life; per-rank files ask once a batch.
  static const bool shared = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<unsigned> cpus;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      for (unsigned cpu = 0; cpu < CPU_SETSIZE && cpus.size() < 64; ++cpu) {
        if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
      }
    }
    return cpus_share_cache("/sys/devices/system/cpu", cpus);
  }();
  return shared;
}

size_t descriptor_limit_share(size_t divisor, size_t cap) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return cap;
  return std::min(cap, static_cast<size_t>(limit.rlim_cur / divisor));
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
