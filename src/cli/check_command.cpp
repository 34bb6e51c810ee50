#include "src/cli/check_command.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <unistd.h>

#include "src/pipeline.h"

namespace nd {
namespace {

struct CheckArgs {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string fail_on = "error";
  std::string color = "auto";
  std::vector<std::string> allow_net;
  size_t max_evidence = 3;
  bool timings = false;
};

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Check NCCL_DEBUG=INFO output for slow or wrong transports");
  cmd->add_option("inputs", args->inputs, "Log files (one per rank is fine); - reads standard input")
      ->required()
      ->type_name("FILE|-");
  cmd->add_option("-f,--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--fail-on", args->fail_on, "Exit 1 when a finding is at or above this level")
      ->check(CLI::IsMember({"error", "warning", "info", "inconclusive"}))
      ->capture_default_str();
  cmd->add_option("--allow-net", args->allow_net, "Also count this network plugin name as RDMA (repeatable)")
      ->delimiter(',')
      ->type_name("NAME");
  cmd->add_option("--color", args->color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("--max-evidence", args->max_evidence, "Evidence lines cited per finding")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_flag("--timings", args->timings, "Print the time of each stage to standard error");
  cmd->callback([args, &exit_code] {
    static const std::map<std::string, FailOn> kFailOn = {
        {"error", FailOn::Error}, {"warning", FailOn::Warning}, {"info", FailOn::Info},
        {"inconclusive", FailOn::Inconclusive}};
    CheckConfig config;
    config.inputs = args->inputs;
    config.format = args->format == "json" ? OutputFormat::Json : OutputFormat::Text;
    config.fail_on = kFailOn.at(args->fail_on);
    config.options.allowed_nets = args->allow_net;
    config.options.max_evidence = args->max_evidence;
    config.color = config.format == OutputFormat::Text && use_color(args->color);
    config.timings = args->timings;
    exit_code = run_check(config);
  });
}

}  // namespace nd
