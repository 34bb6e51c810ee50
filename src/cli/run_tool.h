#pragma once
// Runs a shell command for the end-to-end tests; captures stdout and status.

#include <string>

namespace nd {

struct ToolRun {
  int status = -1;  // exit status, or -1 when it did not exit normally
  std::string out;
};

ToolRun run_tool(const std::string& command);

// Runs `binary args` (stderr folded into stdout) with `env` assignments
// before it, outside any launcher: rank variables of an enclosing mpirun or
// srun must not leak into what the tests compare.
ToolRun run_outside_launcher(const std::string& binary, const std::string& args, const std::string& env = "");

// 'text' quoted for /bin/sh.
std::string shell_quote(const std::string& text);

}  // namespace nd
