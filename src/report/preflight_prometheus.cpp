#include <map>

#include <fmt/format.h>

#include "src/probe/ib_attrs.h"
#include "src/report/preflight_output.h"
#include "src/util/text.h"

namespace nd {
namespace {

// Label values: backslash, double quote and newline are the escapes the
// exposition format defines.
std::string label(std::string_view v) {
  std::string out;
  for (char c : valid_utf8(v)) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void header(std::string& out, const char* name, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
}

}  // namespace

std::string render_preflight_prometheus(const PreflightReport& r) {
  // No timestamps: node_exporter exports the file's mtime as
  // node_textfile_mtime_seconds, which is what staleness alerts should use.
  std::string out;
  header(out, "nccl_doctor_preflight_status", "Preflight verdict: 0 ok, 1 warning, 2 critical, 3 unknown.");
  out += fmt::format("nccl_doctor_preflight_status {}\n", static_cast<int>(r.status));
  header(out, "nccl_doctor_preflight_findings", "Findings by rule, severity and node.");
  std::map<std::tuple<std::string, std::string, std::string, std::string>, int> counts;
  for (const auto& f : r.findings) {
    std::string host = f.hosts.empty() ? "" : f.hosts[0];
    ++counts[{f.id, f.slug, severity_name(f.severity), host}];
  }
  for (const auto& [key, n] : counts) {
    const auto& [id, slug, sev, host] = key;
    out += fmt::format("nccl_doctor_preflight_findings{{rule=\"{}\",slug=\"{}\",severity=\"{}\",host=\"{}\"}} {}\n",
                       id, slug, sev, label(host), n);
  }
  header(out, "nccl_doctor_node_status", "Per-node verdict: 0 ok, 1 warning, 2 critical.");
  for (const auto& n : r.nodes) {
    out += fmt::format("nccl_doctor_node_status{{host=\"{}\"}} {}\n", label(n.label), static_cast<int>(n.status));
  }
  header(out, "nccl_doctor_rdma_devices", "RDMA devices in sysfs.");
  for (const auto& n : r.nodes) {
    out += fmt::format("nccl_doctor_rdma_devices{{host=\"{}\"}} {}\n", label(n.label), n.snapshot.hcas.size());
  }
  header(out, "nccl_doctor_gpudirect_rdma_ready", "1 when nvidia_peermem/nv_peer_mem or dma-buf is available.");
  for (const auto& n : r.nodes) {
    out += fmt::format("nccl_doctor_gpudirect_rdma_ready{{host=\"{}\"}} {}\n", label(n.label),
                       n.snapshot.gdr.ready() ? 1 : 0);
  }
  header(out, "nccl_doctor_rdma_port_active", "1 when the port is ACTIVE and LinkUp.");
  for (const auto& n : r.nodes) {
    for (const auto& h : n.snapshot.hcas) {
      for (const auto& p : h.ports) {
        out += fmt::format("nccl_doctor_rdma_port_active{{host=\"{}\",device=\"{}\",port=\"{}\"}} {}\n",
                           label(n.label), label(h.name), p.port,
                           p.state == kPortActive && p.phys_state == kPhysLinkUp ? 1 : 0);
      }
    }
  }
  header(out, "nccl_doctor_rdma_port_rate_gbps", "Port rate in Gb/s as sysfs reports it.");
  for (const auto& n : r.nodes) {
    for (const auto& h : n.snapshot.hcas) {
      for (const auto& p : h.ports) {
        if (!p.rate_gbps) continue;
        out += fmt::format("nccl_doctor_rdma_port_rate_gbps{{host=\"{}\",device=\"{}\",port=\"{}\"}} {}\n",
                           label(n.label), label(h.name), p.port, *p.rate_gbps);
      }
    }
  }
  header(out, "nccl_doctor_rdma_port_error_counter", "Port error counters (legacy ones saturate).");
  for (const auto& n : r.nodes) {
    for (const auto& h : n.snapshot.hcas) {
      for (const auto& p : h.ports) {
        for (const auto& [name, value] : p.counters) {
          out += fmt::format(
              "nccl_doctor_rdma_port_error_counter{{host=\"{}\",device=\"{}\",port=\"{}\",counter=\"{}\"}} {}\n",
              label(n.label), label(h.name), p.port, label(name), value);
        }
      }
    }
  }
  return out;
}

}  // namespace nd
