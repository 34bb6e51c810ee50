#include "src/cli/run_tool.h"

#include <sys/wait.h>

#include <cstdio>

namespace nd {

ToolRun run_tool(const std::string& command) {
  ToolRun r;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = ::pclose(p);
  if (st != -1 && WIFEXITED(st)) r.status = WEXITSTATUS(st);
  return r;
}

ToolRun run_outside_launcher(const std::string& binary, const std::string& args, const std::string& env) {
  return run_tool("env -u SLURM_PROCID -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u RANK " + env + " " +
                  shell_quote(binary) + " " + args + " 2>&1");
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace nd
