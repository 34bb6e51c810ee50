#include "src/cli/probe_command.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "src/cli/enum_option.h"
#include "src/probe/probe_capture.h"
#include "src/probe/probe_node.h"
#include "src/probe/probe_text.h"
#include "src/probe/snapshot_json.h"

namespace nd {
namespace {

enum class ProbeFormat : uint8_t { Text, Json };

struct ProbeArgs {
  ProbeFormat format = ProbeFormat::Text;
  std::string sysfs_root = "/sys";
  std::string capture;
  bool no_verbs = false;
};

// Exit statuses: 0 the node was probed (whatever it has), 2 the probe could
// not run (root missing, capture not written).
int run_probe(const ProbeArgs& a) {
  std::error_code ec;
  if (!std::filesystem::is_directory(a.sysfs_root, ec)) {
    fmt::print(stderr, "nccl-doctor: error: sysfs root {} is not a directory\n", a.sysfs_root);
    return 2;
  }
  SysfsReader sysfs(a.sysfs_root);
  sysfs.record_accesses(!a.capture.empty());
  HostFacts facts;
  std::string verbs_record;
  NodeSnapshot node = probe_node(sysfs, process_env(), probe_source_for(a.sysfs_root, a.no_verbs), &facts,
                                 a.capture.empty() ? nullptr : &verbs_record);
  if (!a.capture.empty()) {
    CaptureStats stats;
    std::string error;
    if (!capture_tree(sysfs, facts, verbs_record, a.capture, stats, error)) {
      fmt::print(stderr, "nccl-doctor: error: {}\n", error);
      return 2;
    }
    fmt::print(stderr, "nccl-doctor: captured {} files, {} links, {} failing reads into {}\n", stats.files,
               stats.links, stats.errors, a.capture);
  }
  // One write per record: launchers interleave whole writes, not bytes.
  std::string out = a.format == ProbeFormat::Json ? snapshot_record_line(node) + "\n" : render_probe_text(node);
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
    fmt::print(stderr, "nccl-doctor: error: cannot write the report to standard output\n");
    return 2;
  }
  return 0;
}

}  // namespace

void add_probe_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ProbeArgs>();
  CLI::App* cmd = app.add_subcommand("probe", "Describe this node's RDMA devices, GPUs and their PCIe paths");
  add_enum_option<ProbeFormat>(cmd, "-f,--format", args->format,
                               {{"text", ProbeFormat::Text}, {"json", ProbeFormat::Json}},
                               "Output format; json: one record (schema nccl-doctor.probe/1) on one line, for "
                               "preflight --aggregate");
  cmd->add_flag_callback("--json", [args] { args->format = ProbeFormat::Json; }, "Same as --format json");
  cmd->add_option("--sysfs-root", args->sysfs_root, "Read sysfs from here (a capture) instead of /sys")
      ->type_name("DIR")
      ->capture_default_str();
  cmd->add_option("--capture", args->capture,
                  "Also copy every file the probe read (plus host.json) into DIR, for --sysfs-root elsewhere")
      ->type_name("DIR");
  cmd->add_flag("--no-verbs", args->no_verbs, "Do not load libibverbs (offline analysis of a capture)");
  cmd->callback([args, &exit_code] { exit_code = run_probe(*args); });
}

}  // namespace nd
