#pragma once
// Runs a shell command for the end-to-end tests; captures stdout and status.

#include <string>

namespace nd {

struct ToolRun {
  int status = -1;  // exit status, or -1 when it did not exit normally
  std::string out;
};

ToolRun run_tool(const std::string& command);

// 'text' quoted for /bin/sh.
std::string shell_quote(const std::string& text);

}  // namespace nd
