// ND6005 process-spans-gpus: one process holds memory on several GPUs.
#include "checks/gpu/process_spans_gpus.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class ProcessSpansGpus final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6005", "process-spans-gpus", Severity::Warning, Needs::Log,
                                  "one process holds memory on several GPUs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// At most kListed pids named, then "and N more".
constexpr size_t kListed = 4;

}  // namespace

std::vector<HostGpus> gpus_by_host(const GpuSide& side) {
  std::vector<HostGpus> out;
  const auto& gpus = side.gpus;
  for (size_t begin = 0; begin < gpus.size();) {
    size_t end = begin + 1;
    while (end < gpus.size() && gpus[end].host == gpus[begin].host) ++end;
    out.emplace_back(gpus.data() + begin, end - begin);
    begin = end;
  }
  return out;
}

bool mps_on(const GpuTrack& g) {
  return std::any_of(g.processes.begin(), g.processes.end(),
                     [](const GpuProcessFact& p) { return p.mps_server || p.type.starts_with("M"); });
}

// A desktop application that also touches CUDA (`C+G`: a compositor, a
// browser) holds a few MiB there; a rank's CUDA context alone takes hundreds.
constexpr double kRankContextMib = 100;

bool is_compute_client(const GpuProcessFact& p) {
  if (p.type == "G" || p.mps_server) return false;
  return !(p.type == "C+G" && p.mem_mib && *p.mem_mib < kRankContextMib);
}

bool in_mig_instance(const GpuProcessFact& p) { return p.gpu_instance.has_value(); }

HostProcesses::HostProcesses(HostGpus gpus) {
  std::map<uint64_t, Pid> by_pid;
  for (size_t i = 0; i < gpus.size(); ++i) {
    for (const auto& p : gpus[i].processes) {
      if (!p.pid || !p.mem_mib || !is_compute_client(p) || in_mig_instance(p)) continue;
      Pid& entry = by_pid[*p.pid];
      entry.pid = *p.pid;
      // A table and a CSV query of the same moment list it twice on one GPU.
      if (!entry.entries.empty() && entry.entries.back().gpu == i) continue;
      entry.entries.push_back({i, &p});
    }
  }
  for (auto& [pid, entry] : by_pid) {
    for (size_t e = 1; e < entry.entries.size(); ++e) {
      if (*entry.entries[e].fact->mem_mib > *entry.entries[entry.home].fact->mem_mib) entry.home = e;
    }
    pids_.push_back(std::move(entry));
  }
}

const HostProcesses::Pid* HostProcesses::find(uint64_t pid) const {
  auto it = std::lower_bound(pids_.begin(), pids_.end(), pid, [](const Pid& p, uint64_t v) { return p.pid < v; });
  return it != pids_.end() && it->pid == pid ? &*it : nullptr;
}

const HostProcesses::Entry* HostProcesses::entry(const Pid& p, size_t gpu) const {
  for (const auto& e : p.entries) {
    if (e.gpu == gpu) return &e;
  }
  return nullptr;
}

bool HostProcesses::minor(size_t gpu, uint64_t pid) const {
  const Pid* p = find(pid);
  if (!p) return false;
  const Entry* e = entry(*p, gpu);
  const Entry& home = p->entries[p->home];
  return e && e != &home && *e->fact->mem_mib <= kMinorShare * *home.fact->mem_mib;
}

bool HostProcesses::stray(size_t gpu, uint64_t pid) const {
  if (!minor(gpu, pid)) return false;
  for (const Pid* other : residents(gpu)) {
    if (other->pid != pid) return true;
  }
  return false;
}

std::vector<const HostProcesses::Pid*> HostProcesses::residents(size_t gpu) const {
  std::vector<const Pid*> out;
  for (const auto& p : pids_) {
    if (entry(p, gpu) && !minor(gpu, p.pid)) out.push_back(&p);
  }
  return out;
}

void ProcessSpansGpus::check(const CheckContext& ctx, FindingSink& out) const {
  for (HostGpus gpus : gpus_by_host(ctx.model.gpu_side)) {
    HostProcesses procs(gpus);
    // Each pid with a stray context: its own GPU first, then the others.
    std::vector<std::pair<uint64_t, std::string>> spans;  // pid, "GPU 1 69.6 GiB + GPU 0 512 MiB"
    std::vector<LineRef> refs;
    std::vector<size_t> stray_gpus;
    double stray_mib = 0;
    for (const auto& p : procs.pids()) {
      bool strayed = false;
      for (const auto& e : p.entries) {
        if (!procs.stray(e.gpu, p.pid)) continue;
        strayed = true;
        stray_mib += *e.fact->mem_mib;
        refs.push_back(e.fact->ref);
        if (std::find(stray_gpus.begin(), stray_gpus.end(), e.gpu) == stray_gpus.end()) stray_gpus.push_back(e.gpu);
      }
      if (!strayed) continue;
      const auto& home = p.entries[p.home];
      std::string text = fmt::format("{} {}", gpu_label(gpus[home.gpu]), format_mib(home.fact->mem_mib));
      for (const auto& e : p.entries) {
        if (&e != &home) text += fmt::format(" + {} {}", gpu_label(gpus[e.gpu]), format_mib(e.fact->mem_mib));
      }
      spans.emplace_back(p.pid, std::move(text));
    }
    if (spans.empty()) continue;
    const GpuTrack& first = gpus.front();
    std::string where =
        stray_gpus.size() == 1 ? gpu_label(gpus[stray_gpus[0]]) + ", another rank's GPU" : "other ranks' GPUs";
    std::string fix =
        "call torch.cuda.set_device(local_rank) (or set CUDA_VISIBLE_DEVICES per rank) before any CUDA work";
    std::string message;
    if (spans.size() == 1) {
      message = fmt::format(
          "{}: pid {} also holds memory on {} ({}): it created a CUDA context before choosing its "
          "GPU; {}",
          host_label(first), spans[0].first, where, spans[0].second, fix);
    } else {
      std::string listed;
      for (size_t i = 0; i < std::min(spans.size(), kListed); ++i)
        listed += fmt::format("{}pid {} {}", i ? ", " : "", spans[i].first, spans[i].second);
      if (spans.size() > kListed) listed += fmt::format(" and {} more", spans.size() - kListed);
      message = fmt::format(
          "{}: {} processes also hold memory on {} ({}; {} in all): they created CUDA contexts "
          "before choosing their GPU; {}",
          host_label(first), spans.size(), where, listed, format_mib(stray_mib), fix);
    }
    Finding f = make_finding(kInfo, std::move(message));
    if (!first.host.empty()) f.hosts.push_back(first.host);
    std::sort(refs.begin(), refs.end());
    for (LineRef ref : refs) cite(ctx.model, f, ref, ctx.options.max_evidence);
    f.subject = host_label(first);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_process_spans_gpus() { return std::make_unique<ProcessSpansGpus>(); }

}  // namespace nd
