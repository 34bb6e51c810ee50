#include "src/cli/summary_command.h"

#include <memory>

#include "src/cli/enum_option.h"
#include "src/cli/input_args.h"
#include "src/pipeline/pipeline.h"
#include "src/report/summary_renderer.h"

namespace nd {
namespace {

enum class SummaryFormat : uint8_t { Text, Json };

struct SummaryArgs {
  std::vector<std::string> inputs;
  SummaryFormat format = SummaryFormat::Text;
};

}  // namespace

// Exit codes: 0 written, 2 an input was unreadable (the summary of the rest
// is still written) or stdout failed, 3 usage.
void add_summary_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SummaryArgs>();
  CLI::App* cmd = app.add_subcommand("summary", "Show the job: hosts, GPUs, NICs, communicators, transports, rails");
  cmd->add_option("inputs", args->inputs,
                  "Log files (one per rank is fine); - or none reads standard input")
      ->type_name("FILE|-");
  add_enum_option<SummaryFormat>(cmd, "-f,--format", args->format,
                                 {{"text", SummaryFormat::Text}, {"json", SummaryFormat::Json}}, "Output format");
  cmd->callback([args, &exit_code] {
    default_inputs_to_stdin(args->inputs);
    JobModel model;
    std::vector<std::string> errors = read_model(args->inputs, model);
    JobSummary summary = summarize(model, SummaryParts{.channel_links = false});
    std::string out = args->format == SummaryFormat::Json ? render_summary_json(summary, errors)
                                                          : render_summary_text(summary, errors);
    exit_code = !write_stdout(out) || !errors.empty() ? 2 : 0;
  });
}

}  // namespace nd
