#include "src/cli/check_command.h"

#include <cstdlib>
#include <memory>
#include <unistd.h>

#include "checks/registry.h"
#include "src/cli/enum_option.h"
#include "src/cli/input_args.h"
#include "src/cli/rules_command.h"
#include "src/util/duration.h"
#include "src/pipeline/pipeline.h"

namespace nd {
namespace {

enum class ColorMode : uint8_t { Auto, Always, Never };

struct CheckArgs {
  std::vector<std::string> inputs;
  OutputFormat format = OutputFormat::Text;
  FailOn fail_on = FailOn::Error;
  ColorMode color = ColorMode::Auto;
  std::vector<std::string> allow_net;
  size_t max_evidence = 3;
  double min_gpu_util = 80;
  std::optional<double> expect_busbw;
  bool timings = false;
  bool verbose = false;
  std::vector<std::string> enable;
  std::vector<std::string> disable;
  bool list_rules = false;
  bool tee = false;
  std::string hang_after;
};

bool use_color(ColorMode mode, int fd) {
  if (mode == ColorMode::Always) return true;
  if (mode == ColorMode::Never) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return ::isatty(fd) == 1;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Check NCCL_DEBUG=INFO output for slow or wrong transports");
  // Required unless --list-rules; checked in the callback.
  cmd->add_option("inputs", args->inputs,
                  "Log files (one per rank is fine) and outputs of nvidia-smi, topo -m, nccl-tests or a Horovod "
                  "timeline; HOST=FILE names the host of a file; - reads standard input")
      ->type_name("[HOST=]FILE|-");
  add_enum_option<OutputFormat>(
      cmd, "-f,--format", args->format,
      {{"text", OutputFormat::Text}, {"json", OutputFormat::Json}, {"junit", OutputFormat::Junit}}, "Output format");
  add_enum_option<FailOn>(cmd, "--fail-on", args->fail_on,
                          {{"error", FailOn::Error}, {"warning", FailOn::Warning}, {"info", FailOn::Info},
                           {"inconclusive", FailOn::Inconclusive}},
                          "Exit 1 when a finding is at or above this level");
  cmd->add_option("--allow-net", args->allow_net, "Also count this network plugin name as RDMA (repeatable)")
      ->delimiter(',')
      ->type_name("NAME");
  add_enum_option<ColorMode>(cmd, "--color", args->color,
                             {{"auto", ColorMode::Auto}, {"always", ColorMode::Always}, {"never", ColorMode::Never}},
                             "Colour the text output");
  cmd->add_option("--max-evidence", args->max_evidence, "Evidence lines cited per finding")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--min-gpu-util", args->min_gpu_util,
                  "nvidia-smi inputs: a GPU busy less than this share (%) of its steady state is underused")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--expect-busbw", args->expect_busbw,
                  "nccl-tests inputs: the bus bandwidth (GB/s) the largest size should reach; default: derived "
                  "from the GPUs and NICs the inputs show")
      ->check(CLI::PositiveNumber)
      ->type_name("GBPS");
  cmd->add_flag("--timings", args->timings, "Print the wall and CPU time of each stage to standard error");
  cmd->add_flag("-v,--verbose", args->verbose,
                "Long rank, channel and host lists in full (by default cut to fit a terminal; JSON keeps them whole)");
  cmd->add_option("--enable", args->enable,
                  "Run only these rules: IDs, slugs or ID ranges (ND3000-ND3999), comma-separated, repeatable")
      ->type_name("RULES")
      ->allow_extra_args(false)  // the next word is an input, not another rule
      ->take_all();
  cmd->add_option("--disable", args->disable,
                  "Do not run these rules: IDs, slugs or ID ranges, comma-separated, repeatable")
      ->type_name("RULES")
      ->allow_extra_args(false)  // the next word is an input, not another rule
      ->take_all();
  cmd->add_flag("--list-rules", args->list_rules, "List the rules that would run (after --enable/--disable) and exit");
  cmd->add_flag("--tee", args->tee,
                "Live pipe mode: copy the input to standard output as it arrives; findings go to standard error "
                "as soon as they are established, the report at end of input");
  cmd->add_option("--hang-after", args->hang_after,
                  "Live mode: ranks still in communicator init when the input has been silent this long "
                  "(90s, 5m, 1h) hang; reported at once and counted as evidence in the report")
      ->type_name("DURATION")
      ->check([](const std::string& v) {
        return parse_duration(v) ? std::string() : "not a duration: " + v + " (use e.g. 90s, 5m, 1h30m)";
      });
  cmd->callback([args, &exit_code] {
    CheckConfig config;
    // Node rules run too when the inputs hold probe records.
    if (auto err = select_rules(check_rules_with_probes(), args->enable, args->disable, config.selection)) {
      throw CLI::ValidationError(*err);
    }
    if (args->list_rules) {
      std::string list = args->format == OutputFormat::Json ? render_rules_json(log_rules(), config.selection)
                                                            : render_rules_text(log_rules(), config.selection);
      exit_code = write_stdout(list) ? 0 : 2;
      return;
    }
    // `job | nccl-doctor check` reads standard input like `check -`.
    default_inputs_to_stdin(args->inputs);
    config.inputs = args->inputs;
    config.format = args->format;
    config.tee = args->tee;
    if (!args->hang_after.empty()) config.hang_after = parse_duration(args->hang_after);
    config.fail_on = args->fail_on;
    config.options.allowed_nets = args->allow_net;
    config.options.max_evidence = args->max_evidence;
    config.options.full_lists = args->verbose;
    config.options.min_gpu_util = args->min_gpu_util;
    config.options.expect_busbw_gbs = args->expect_busbw;
    // With --tee the report goes to standard error, so that decides colour.
    config.color = config.format == OutputFormat::Text &&
                   use_color(args->color, config.tee ? STDERR_FILENO : STDOUT_FILENO);
    config.timings = args->timings;
    exit_code = run_check(config);
  });
}

}  // namespace nd
