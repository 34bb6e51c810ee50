#pragma once
// Runs independent tasks on the machine's cores.

#include <cstddef>
#include <functional>

namespace nd {

// Threads the tool may use: one per core, at most `cap`; ND_THREADS=N
// overrides the core count (also capped).
size_t worker_threads(size_t cap);

// Calls fn(0) ... fn(tasks - 1), each once, on up to `threads` threads
// (this one among them), in no particular order. The first exception a task
// throws is rethrown here once every task has ended.
void run_parallel(size_t tasks, size_t threads, const std::function<void(size_t)>& fn);

}  // namespace nd
