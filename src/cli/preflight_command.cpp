#include "src/cli/preflight_command.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "src/cli/enum_option.h"
#include "src/pipeline/preflight.h"
#include "src/report/preflight_output.h"
#include "src/probe/probe_node.h"
#include "src/probe/record_reader.h"

namespace nd {
namespace {

enum class PreflightFormat : uint8_t { Text, Json, Junit, Prometheus };

struct PreflightArgs {
  std::string sysfs_root = "/sys";
  bool no_verbs = false;
  std::vector<std::string> expect;
  std::string expect_file;
  std::string aggregate;
  bool no_local_rules = false;
  PreflightFormat format = PreflightFormat::Text;
  bool reason_only = false;
  std::string output;
};

constexpr int kUnknown = static_cast<int>(PreflightStatus::Unknown);

bool read_all(const std::string& path, std::string& text) {
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

// node_exporter may read the textfile at any moment: write a sibling and
// rename it into place so it never sees half a file.
bool write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0;
  }
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

int run_preflight(const PreflightArgs& a) {
  Expectations expect;
  if (!a.expect_file.empty()) {
    std::string text;
    if (!read_all(a.expect_file, text)) {
      fmt::print(stderr, "nccl-doctor: error: cannot read expectations file {}\n", a.expect_file);
      return kUnknown;
    }
    if (std::string err = parse_expectations_file(text, expect); !err.empty()) {
      fmt::print(stderr, "nccl-doctor: error: {}: {}\n", a.expect_file, err);
      return kUnknown;
    }
  }
  for (const auto& spec : a.expect) {
    if (std::string err = parse_expectations(spec, expect); !err.empty()) {
      fmt::print(stderr, "nccl-doctor: error: --expect: {}\n", err);
      return kUnknown;
    }
  }

  PreflightReport report;
  if (!a.aggregate.empty()) {
    std::string text;
    if (!read_all(a.aggregate, text)) {
      fmt::print(stderr, "nccl-doctor: error: cannot read {}\n", a.aggregate);
      return kUnknown;
    }
    report = preflight_aggregate(read_probe_records(text), expect, a.aggregate, !a.no_local_rules);
  } else {
    std::error_code ec;
    if (!std::filesystem::is_directory(a.sysfs_root, ec)) {
      fmt::print(stderr, "nccl-doctor: error: sysfs root {} is not a directory\n", a.sysfs_root);
      return kUnknown;
    }
    SysfsReader sysfs(a.sysfs_root);
    report = preflight_local(probe_node(sysfs, process_env(), probe_source_for(a.sysfs_root, a.no_verbs)), expect);
  }

  std::string out;
  if (a.reason_only) {
    out = report.reason + "\n";
  } else {
    switch (a.format) {
      case PreflightFormat::Text: out = render_preflight_text(report); break;
      case PreflightFormat::Json: out = render_preflight_json(report); break;
      case PreflightFormat::Junit: out = render_preflight_junit(report); break;
      case PreflightFormat::Prometheus: out = render_preflight_prometheus(report); break;
    }
  }
  if (!write_output(a.output, out)) {
    fmt::print(stderr, "nccl-doctor: error: cannot write {}\n", a.output.empty() ? "standard output" : a.output);
    return kUnknown;
  }
  return static_cast<int>(report.status);
}

}  // namespace

void add_preflight_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PreflightArgs>();
  CLI::App* cmd = app.add_subcommand(
      "preflight",
      "Check this node's RDMA fabric (or aggregated probe records) before a job; exit 0 OK, 1 warning, "
      "2 critical, 3 unknown");
  cmd->add_option("--expect", args->expect, "Expectations, e.g. hcas=8,rate=400,link=ib,gdr=yes (repeatable)")
      ->type_name("KEY=VALUE,...");
  cmd->add_option("--expect-file", args->expect_file, "Expectations, one key=value per line")->type_name("FILE");
  cmd->add_option("--aggregate", args->aggregate,
                  "Judge the probe --json records of many nodes (launcher output, prefixes allowed)")
      ->type_name("FILE|-");
  cmd->add_flag("--no-local-rules", args->no_local_rules,
                "With --aggregate, only compare nodes (skip the per-node ND4xxx rules)");
  cmd->add_option("--sysfs-root", args->sysfs_root, "Read sysfs from here (a capture) instead of /sys")
      ->type_name("DIR")
      ->capture_default_str();
  cmd->add_flag("--no-verbs", args->no_verbs, "Do not load libibverbs (offline analysis of a capture)");
  add_enum_option<PreflightFormat>(cmd, "-f,--format", args->format,
                                   {{"text", PreflightFormat::Text},
                                    {"json", PreflightFormat::Json},
                                    {"junit", PreflightFormat::Junit},
                                    {"prometheus", PreflightFormat::Prometheus}},
                                   "Output format");
  cmd->add_flag("--reason", args->reason_only,
                "Print only the one-line reason (for scontrol update ... state=drain reason=...)");
  cmd->add_option("-o,--output", args->output, "Write the report here (atomically: safe for node_exporter)")
      ->type_name("FILE");
  cmd->callback([args, &exit_code] { exit_code = run_preflight(*args); });
}

}  // namespace nd
