#include "src/cli/did_you_mean.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("an unknown command or option gets the closest name") {
  CLI::App app;
  app.add_subcommand("check", "")->add_option("-f,--format", "");
  app.add_subcommand("probe", "");
  app.add_subcommand("preflight", "");
  CHECK(did_you_mean(app, {"chek", "job.log"}) == "unknown command 'chek'; did you mean 'check'?");
  CHECK(did_you_mean(app, {"prbe"}) == "unknown command 'prbe'; did you mean 'probe'?");
  CHECK(did_you_mean(app, {"frobnicate"}) == "unknown command 'frobnicate'; the commands are check, probe, preflight");
  CHECK(did_you_mean(app, {"check", "--fromat", "json", "job.log"}) ==
        "unknown option '--fromat' for check; did you mean '--format'?");
  CHECK(did_you_mean(app, {"check", "--fromat=json"}) == "unknown option '--fromat' for check; did you mean '--format'?");
  CHECK(did_you_mean(app, {"check", "--zzzzzzzz"}) ==
        "unknown option '--zzzzzzzz' for check; 'nccl-doctor check --help' lists them");
  // Nothing unknown: no hint (the parser's own message stands).
  CHECK(did_you_mean(app, {"check", "--format", "yaml"}).empty());
  CHECK(did_you_mean(app, {"check", "--", "--fromat"}).empty());
}
