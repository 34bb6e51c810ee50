#include "src/cli/graph_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "src/cli/enum_option.h"
#include "src/cli/input_args.h"
#include "src/pipeline/pipeline.h"
#include "src/report/graph_renderer.h"
#include "src/report/job_links.h"

extern char** environ;

namespace nd {
namespace {

enum class GraphKind : uint8_t { Ring, Tree, All };
enum class GraphFormat : uint8_t { Dot, Json, Text };

struct GraphArgs {
  std::vector<std::string> inputs;
  std::string comm;
  std::string channel = "all";
  GraphKind kind = GraphKind::All;
  GraphLevel level = GraphLevel::Auto;
  uint32_t fold_above = kFoldAboveHosts;
  GraphFormat format = GraphFormat::Dot;
  std::string render;
  std::vector<std::string> allow_net;
};

constexpr int kExitNothing = 1;
constexpr int kExitInput = 2;
constexpr int kExitUsage = 3;
constexpr int kExitRender = 4;

// Pipes `dot_source` into `dot -T<fmt> -o <out>`. Returns an error text,
// empty on success.
std::string run_dot(const std::string& dot_source, const std::string& out_path) {
  std::string type = out_path.ends_with(".png") ? "png" : "svg";
  std::string tmp = fmt::format("{}.nccl-doctor.{}.dot", out_path, ::getpid());
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) return fmt::format("cannot write '{}': {}", tmp, std::strerror(errno));
  bool wrote = std::fwrite(dot_source.data(), 1, dot_source.size(), f) == dot_source.size();
  wrote &= std::fclose(f) == 0;
  if (!wrote) {
    std::remove(tmp.c_str());
    return fmt::format("cannot write '{}'", tmp);
  }
  std::string t = "-T" + type;
  std::string o = "-o" + out_path;
  const char* argv[] = {"dot", t.c_str(), o.c_str(), tmp.c_str(), nullptr};
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, "dot", nullptr, nullptr, const_cast<char* const*>(argv), environ);
  if (rc != 0) {
    std::remove(tmp.c_str());
    if (rc == ENOENT) {
      return "Graphviz 'dot' is not installed (not found on PATH); install graphviz, or write DOT with "
             "--format dot and render it elsewhere";
    }
    return fmt::format("cannot run Graphviz 'dot': {}", std::strerror(rc));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::remove(tmp.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "Graphviz 'dot' failed; see its message above";
  return {};
}

int run_graph(const GraphArgs& args) {
  if (!args.render.empty() && !args.render.ends_with(".svg") && !args.render.ends_with(".png")) {
    fmt::print(stderr, "nccl-doctor: error: --render needs a file name ending in .svg or .png, not '{}'\n",
               display(args.render, 200));
    return kExitUsage;
  }
  GraphRequest req;
  if (args.channel != "all") {
    unsigned long ch = 0;
    const char* s = args.channel.c_str();
    char* end = nullptr;
    errno = 0;
    ch = std::strtoul(s, &end, 10);
    if (args.channel.empty() || *end != '\0' || errno != 0 || ch > 65535 || args.channel[0] == '-') {
      fmt::print(stderr, "nccl-doctor: error: --channel takes a channel number or 'all', not '{}'\n",
                 display(args.channel, 200));
      return kExitUsage;
    }
    req.channel = static_cast<uint16_t>(ch);
  }
  req.rings = args.kind != GraphKind::Tree;
  req.trees = args.kind != GraphKind::Ring;
  req.level = args.level;
  req.fold_above_hosts = args.fold_above;
  req.options.allowed_nets = args.allow_net;

  JobModel model;
  std::vector<std::string> errors = read_model(args.inputs, model);
  if (!errors.empty()) return kExitInput;
  auto comm = find_comm(model, args.comm);
  if (!comm) {
    if (model.comms.empty()) {
      fmt::print(stderr, "nccl-doctor: graph: no communicator in the input (no Init or connection lines)\n");
      return kExitNothing;
    }
    std::string known;
    for (const auto& c : model.comms) known += " " + display(c.key, 40);
    fmt::print(stderr, "nccl-doctor: error: no single communicator matches '{}'; the log has:{}\n",
               display(args.comm, 200), known);
    return kExitUsage;
  }
  req.comm = *comm;
  GraphView view = build_graph(model, req);
  if (view.ring_channels.empty() && view.tree_channels.empty()) {
    fmt::print(stderr, "nccl-doctor: graph: communicator {} has no {} {}in the log\n", display(view.comm, 40),
               args.kind == GraphKind::All ? "ring or tree" : args.kind == GraphKind::Ring ? "ring" : "tree",
               req.channel ? fmt::format("on channel {} ", *req.channel) : std::string());
    return kExitNothing;
  }
  if (!args.render.empty()) {
    if (view.level == GraphLevel::Rank && view.nodes.size() > kRankLevelMaxRanks) {
      fmt::print(stderr,
                 "nccl-doctor: note: {} ranks drawn one by one; Graphviz may take many minutes (--level auto draws "
                 "hosts above {} ranks)\n",
                 view.nodes.size(), kRankLevelMaxRanks);
    }
    std::string err = run_dot(render_graph_dot(view), args.render);
    if (!err.empty()) {
      fmt::print(stderr, "nccl-doctor: error: {}\n", err);
      return kExitRender;
    }
    return 0;
  }
  std::string out;
  switch (args.format) {
    case GraphFormat::Dot: out = render_graph_dot(view); break;
    case GraphFormat::Json: out = render_graph_json(view); break;
    case GraphFormat::Text: out = render_graph_text(model, req); break;
  }
  return write_stdout(out) ? 0 : kExitInput;
}

}  // namespace

void add_graph_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* cmd = app.add_subcommand("graph", "Draw the rings and trees of a communicator (DOT, JSON or text)");
  cmd->add_option("inputs", args->inputs,
                  "Log files (one per rank is fine); - or none reads standard input")
      ->type_name("FILE|-");
  cmd->add_option("--comm", args->comm, "Communicator: commId (or a unique prefix) or #k/n; default the largest")
      ->type_name("ID");
  cmd->add_option("--channel", args->channel, "Channel number, or all")->type_name("N|all")->capture_default_str();
  add_enum_option<GraphKind>(cmd, "--kind", args->kind,
                             {{"ring", GraphKind::Ring}, {"tree", GraphKind::Tree}, {"all", GraphKind::All}},
                             "Which graphs");
  add_enum_option<GraphLevel>(
      cmd, "--level", args->level,
      {{"auto", GraphLevel::Auto}, {"rank", GraphLevel::Rank}, {"host", GraphLevel::Host}},
      fmt::format("One node per rank (clustered by host) or per host; auto: ranks up to {} ranks, else hosts",
                  kRankLevelMaxRanks));
  cmd->add_option("--fold-above", args->fold_above,
                  "Host level: above N hosts, fold the hosts with no warning or error on their links into one node "
                  "(0: never)")
      ->type_name("N")
      ->capture_default_str();
  add_enum_option<GraphFormat>(cmd, "-f,--format", args->format,
                               {{"dot", GraphFormat::Dot}, {"json", GraphFormat::Json}, {"text", GraphFormat::Text}},
                               "Output format");
  cmd->add_option("--render", args->render, "Run Graphviz dot and write this .svg or .png file")
      ->type_name("FILE");
  cmd->add_option("--allow-net", args->allow_net, "Also count this network plugin name as RDMA (repeatable)")
      ->delimiter(',')
      ->type_name("NAME");
  cmd->callback([args, &exit_code] {
    default_inputs_to_stdin(args->inputs);
    exit_code = run_graph(*args);
  });
}

}  // namespace nd
