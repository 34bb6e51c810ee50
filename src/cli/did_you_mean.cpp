#include "src/cli/did_you_mean.h"

#include <algorithm>

#include <fmt/format.h>

#include "checks/registry.h"

namespace nd {
namespace {

// About one typo per three characters, as rule names are matched.
std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

const CLI::App* find_command(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(name)) return sub;
  }
  return nullptr;
}

std::string unknown_option(const CLI::App& cmd, const std::vector<std::string>& args, size_t from) {
  for (size_t i = from; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (!arg.starts_with("--") || arg.size() == 2) continue;
    std::string name = arg.substr(2, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - 2);
    if (cmd.get_option_no_throw("--" + name) != nullptr) continue;
    std::vector<std::string> known;
    for (const CLI::Option* opt : cmd.get_options()) {
      for (const auto& l : opt->get_lnames()) known.push_back(l);
    }
    std::string best = closest(name, known);
    if (best.empty()) return fmt::format("unknown option '--{}' for {}; '{} --help' lists them", name, cmd.get_name(),
                                         "nccl-doctor " + cmd.get_name());
    return fmt::format("unknown option '--{}' for {}; did you mean '--{}'?", name, cmd.get_name(), best);
  }
  return {};
}

}  // namespace

std::string did_you_mean(const CLI::App& app, const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].starts_with("-")) continue;
    if (const CLI::App* cmd = find_command(app, args[i])) return unknown_option(*cmd, args, i + 1);
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
    std::string best = closest(args[i], names);
    if (best.empty()) {
      std::string all;
      for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
      return fmt::format("unknown command '{}'; the commands are {}", args[i], all);
    }
    return fmt::format("unknown command '{}'; did you mean '{}'?", args[i], best);
  }
  return {};
}

}  // namespace nd
