// nccl-doctor: diagnoses NCCL multi-GPU jobs from their logs and their nodes.

#include <csignal>
#include <cstdio>
#include <exception>

#if defined(__GLIBC__)
#include <malloc.h>
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

int main(int argc, char** argv) {
  // A closed stdout must surface as a write error we report, not a silent kill.
  std::signal(SIGPIPE, SIG_IGN);
#if defined(__GLIBC__)
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
#endif

  CLI::App app{"nccl-doctor: diagnose NCCL multi-GPU, multi-node jobs", "nccl-doctor"};
  app.set_version_flag("--version", std::string("nccl-doctor ") + ND_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  nd::add_check_command(app, exit_code);
  nd::add_rules_command(app, exit_code);
  nd::add_explain_command(app, exit_code);
  nd::add_summary_command(app, exit_code);
  nd::add_graph_command(app, exit_code);
  nd::add_diff_command(app, exit_code);
  nd::add_probe_command(app, exit_code);
  nd::add_preflight_command(app, exit_code);

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
