// nccl-doctor: diagnoses NCCL multi-GPU jobs from their logs and their nodes.

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iterator>
#include <string_view>

// A sanitizer brings its own malloc.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ND_SANITIZER_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define ND_SANITIZER_MALLOC 1
#endif
#endif

#if defined(__GLIBC__) && !defined(ND_SANITIZER_MALLOC)
#define ND_TUNE_HEAP 1
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "nd_config.h"
#include "src/cli/check_command.h"
#include "src/cli/did_you_mean.h"
#include "src/cli/diff_command.h"
#include "src/cli/explain_command.h"
#include "src/cli/rules_command.h"
#include "src/cli/graph_command.h"
#include "src/cli/summary_command.h"
#include "src/cli/preflight_command.h"
#include "src/cli/probe_command.h"

#if defined(ND_TUNE_HEAP)
namespace {

// Sets glibc's malloc up for the model; from .preinit_array, because the
// heap's first bytes must not be written before the huge page advice below,
// and the static constructors allocate.
void set_up_heap(int, char**, char**) {
  // The model's arrays grow to tens of MB. glibc would map each large block
  // afresh and give freed memory back at once, so every regrowth faults its
  // pages in again, which is slow in VMs and containers: keep them instead.
  // Memory is bounded by the job's size, and the process is short-lived.
  // 32 MB is the largest threshold glibc takes (it ignores a larger one, and
  // setting the trim threshold then pins the mmap threshold at 128 KB).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  // One heap: the worker threads allocate little, and with an arena each the
  // model, built by whichever thread merges, would spread over all of them.
  mallopt(M_ARENA_MAX, 1);
  // A large job's model fills tens of MB of heap; in 4 KB pages that is one
  // page fault each (15 000 for 8192 ranks), in 2 MB transparent huge pages a
  // few dozen. Reserve the heap's first 64 MB at once and ask for huge pages
  // there (glibc's own glibc.malloc.hugetlb=1 does the same for every chunk).
  // Nothing is touched until used; with THP off the advice is ignored.
  //
  // A huge page range whose first write comes before the advice stays in
  // small pages for good, and a short run's whole heap fits in the first
  // range (40 faults instead of one). So the heap starts one page below a
  // huge page boundary: malloc writes its first headers there, and all it
  // hands out later lies in advised ranges.
  constexpr uintptr_t kHugeHeap = uintptr_t{64} << 20;
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t huge_page = page / sizeof(void*) * page;  // what one page of page table maps
  const auto brk_start = reinterpret_cast<uintptr_t>(sbrk(0));
  uintptr_t heap_start = (brk_start + page - 1) & ~(page - 1);
  const uintptr_t boundary = (heap_start + page + huge_page - 1) & ~(huge_page - 1);
  const bool placed = huge_page < kHugeHeap &&
                      sbrk(static_cast<intptr_t>(boundary - page - brk_start)) != reinterpret_cast<void*>(-1);
  if (placed) heap_start = boundary - page;
  mallopt(M_TOP_PAD, static_cast<int>(kHugeHeap));
  void* volatile first = std::malloc(1);  // malloc's first block: the heap grows by the pad
  std::free(first);
  mallopt(M_TOP_PAD, 128 << 10);  // glibc's default for later growth
  const auto heap_end = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t advised = heap_start + page;
  if (heap_end > advised) madvise(reinterpret_cast<void*>(advised), heap_end - advised, MADV_HUGEPAGE);
}

}  // namespace

__attribute__((section(".preinit_array"), used)) static void (*const kSetUpHeap)(int, char**, char**) = set_up_heap;
#endif

int main(int argc, char** argv) {
  // A closed stdout must surface as a write error we report, not a silent kill.
  std::signal(SIGPIPE, SIG_IGN);

  CLI::App app{"nccl-doctor: diagnose NCCL multi-GPU, multi-node jobs", "nccl-doctor"};
  app.set_version_flag("--version", std::string("nccl-doctor ") + ND_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  struct Command {
    std::string_view name;
    void (*add)(CLI::App&, int&);
  };
  constexpr Command kCommands[] = {
      {"check", nd::add_check_command},     {"rules", nd::add_rules_command}, {"explain", nd::add_explain_command},
      {"summary", nd::add_summary_command}, {"graph", nd::add_graph_command}, {"diff", nd::add_diff_command},
      {"probe", nd::add_probe_command},     {"preflight", nd::add_preflight_command},
  };
  // Building every command's options is an eighth of the instructions of a
  // short log's check. When the first argument names a command, only that
  // one is built: its help and errors read the same without the others. A
  // lone --version needs none of them (they were two fifths of its work).
  std::string_view first = argc > 1 ? argv[1] : "";
  bool named =
      std::any_of(std::begin(kCommands), std::end(kCommands), [&](const Command& c) { return c.name == first; });
  bool version_only = argc == 2 && first == "--version";
  for (const Command& c : kCommands) {
    if (!version_only && (!named || c.name == first)) c.add(app, exit_code);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string hint = nd::did_you_mean(app, std::vector<std::string>(argv + 1, argv + argc));
    if (hint.empty()) {
      app.exit(e);
    } else {
      fmt::print(stderr, "nccl-doctor: {}\nRun with --help for more information.\n", hint);
    }
    return 3;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "nccl-doctor: error: out of memory\n");
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "nccl-doctor: internal error: {}\n", e.what());
    return 2;
  }
  return exit_code;
}
