#pragma once
// A hint for a command line the parser rejected: the closest command to an
// unknown first word (`chek`), the closest option to an unknown `--fromat`.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace nd {

// Empty when the words hold no unknown command or option.
std::string did_you_mean(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace nd
