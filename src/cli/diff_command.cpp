#include "src/cli/diff_command.h"

#include <memory>

#include "src/cli/enum_option.h"
#include "src/pipeline/pipeline.h"
#include "src/pipeline/run_loader.h"
#include "src/report/run_diff.h"

namespace nd {
namespace {

enum class DiffFormat : uint8_t { Text, Json };

struct DiffArgs {
  std::string good;
  std::string bad;
  DiffFormat format = DiffFormat::Text;
  std::vector<std::string> allow_net;
};

}  // namespace

// Exit codes: 0 BAD is no worse than GOOD, 1 it regressed, 2 an input was
// unreadable (or stdout failed), 3 usage, 4 an input holds nothing to judge.
void add_diff_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand("diff", "Show what changed between a good run and a bad one");
  cmd->add_option("good", args->good,
                  "The run that was fast: its log (with the outputs check reads beside it) or its saved "
                  "`check --format json` report; - reads standard input")
      ->required()
      ->type_name("GOOD");
  cmd->add_option("bad", args->bad, "The run to compare with it, in either form; - reads standard input")
      ->required()
      ->type_name("BAD");
  add_enum_option<DiffFormat>(cmd, "-f,--format", args->format, {{"text", DiffFormat::Text}, {"json", DiffFormat::Json}},
                              "Output format");
  cmd->add_option("--allow-net", args->allow_net, "Also count this network plugin name as RDMA (repeatable)")
      ->delimiter(',')
      ->type_name("NAME");
  cmd->callback([args, &exit_code] {
    if (args->good == "-" && args->bad == "-") throw CLI::ValidationError("GOOD and BAD cannot both be standard input");
    CheckConfig config;
    config.options.allowed_nets = args->allow_net;
    LoadedRun good = load_run(args->good, config);
    LoadedRun bad = load_run(args->bad, config);
    // An unreadable input outranks one with nothing in it, as in `check`.
    if (good.status != 0 || bad.status != 0) {
      exit_code = good.status == 2 || bad.status == 2 ? 2 : kExitNoNcclLines;
      return;
    }
    RunDiff diff = diff_runs(good.report, bad.report, args->good, args->bad);
    std::string out = args->format == DiffFormat::Json ? render_diff_json(diff) : render_diff_text(diff);
    if (!write_stdout(out)) {
      exit_code = 2;
      return;
    }
    exit_code = diff.regressed() ? 1 : 0;
  });
}

}  // namespace nd
