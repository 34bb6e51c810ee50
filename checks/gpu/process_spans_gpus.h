#pragma once
// The processes nvidia-smi lists on one host's GPUs, as ND6003-ND6005 read
// them. ND6005 reports a rank's stray context on another rank's GPU; the
// same analysis tells gpu-shared (ND6003) and gpu-idle (ND6004) which
// entries are such contexts and not a rank of that GPU, so that one
// mistake gets one finding.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "checks/gpu/gpu_labels.h"
#include "src/model/gpu_side.h"
#include "src/model/job_model.h"

namespace nd {

// The tracks of one host: a run of GpuSide::gpus, which is sorted by host.
using HostGpus = std::span<const GpuTrack>;
std::vector<HostGpus> gpus_by_host(const GpuSide& side);


// The MPS server, or a process nvidia-smi marks as an MPS client (M, M+C),
// is on the GPU: its processes share it on purpose.
bool mps_on(const GpuTrack& g);
// A process that runs CUDA work on the GPU: C, C+G, M, M+C, or a
// --query-compute-apps row (no type); not G (graphics only) and not the
// MPS server itself.
bool is_compute_client(const GpuProcessFact& p);
// A table row whose GI ID is a number: the process runs in a MIG instance,
// which is a GPU of its own.
bool in_mig_instance(const GpuProcessFact& p);

// The compute processes of one host with a known pid and memory figure,
// outside MIG instances, by pid.
class HostProcesses {
 public:
  struct Entry {
    size_t gpu;  // into the HostGpus
    const GpuProcessFact* fact;
  };
  struct Pid {
    uint64_t pid;
    std::vector<Entry> entries;  // by GPU
    size_t home = 0;             // into entries: where it holds the most
  };

  explicit HostProcesses(HostGpus gpus);

  const std::vector<Pid>& pids() const { return pids_; }
  // `pid` on `gpu` holds a minor context: at most kMinorShare of what it
  // holds on its own GPU. A rank is not counted on such a GPU.
  bool minor(size_t gpu, uint64_t pid) const;
  // A minor context on a GPU that is another process's own: what ND6005
  // reports (it costs that process memory and SM time).
  bool stray(size_t gpu, uint64_t pid) const;
  // The pids whose own GPU this is (not a minor context), ascending.
  std::vector<const Pid*> residents(size_t gpu) const;

  static constexpr double kMinorShare = 0.25;

 private:
  const Pid* find(uint64_t pid) const;
  const Entry* entry(const Pid& p, size_t gpu) const;
  std::vector<Pid> pids_;
};

}  // namespace nd
