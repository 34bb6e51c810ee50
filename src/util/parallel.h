#pragma once
// Runs independent tasks on the machine's cores.

#include <cstddef>
#include <functional>
#include <span>
#include <string>

namespace nd {

// Threads the tool may use: one per core, at most `cap`; ND_THREADS=N
// overrides the core count (also capped).
size_t worker_threads(size_t cap);

// Whether two of the CPUs this process may run on share a cache (level 2 or
// 3), as sysfs describes it. Where they share none, data one thread writes
// costs another five times as much to read (measured on a 2-core virtual
// machine: 114 against 21 ns a line), so handing work between threads costs
// more there. False also where sysfs has no cache topology at all, as in
// virtual machines that hide it.
bool cpus_share_cache();
// The same for `cpus`, below `cpu_root` (/sys/devices/system/cpu): for tests.
bool cpus_share_cache(const std::string& cpu_root, std::span<const unsigned> cpus);

// The soft limit on the descriptors this process may open, divided by
// `divisor`, at most `cap` (also when there is no limit or it is unknown):
// for inputs kept open, well inside whatever limit a cluster sets.
size_t descriptor_limit_share(size_t divisor, size_t cap);

// Calls fn(0) ... fn(tasks - 1), each once, on up to `threads` threads
// (this one among them), in no particular order. The first exception a task
// throws is rethrown here once every task has ended.
void run_parallel(size_t tasks, size_t threads, const std::function<void(size_t)>& fn);

}  // namespace nd
