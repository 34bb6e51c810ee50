#pragma once
// The regular expressions for NCCL message shapes, one table; each row is
// compiled on first use.
// Each row names the versions that print the shape and one real example.

#include <re2/re2.h>

namespace nd {

enum class PatternKind {
  Connection,
  CollNet,
  GraphRing,
  RingListing,
  Init,
  CommShape,
  Version,
  UsingNetwork,
  NetUsing,
  CudaDriver,
  EnvSetByEnvironment,
  EnvSetTo,
  SettingAffinity,
  TopoCpuAffinity,
  GraphPattern,
  EnvNetName,
  kCount,
};

struct PatternRow {
  PatternKind kind;
  const char* regex;
  const char* versions;
  const char* example;
};

inline constexpr PatternRow kPatterns[] = {
    {PatternKind::Connection,
     R"(^(Ring|Channel) (\d+)(?:/(\d+))? : (\d+)(?:\[([0-9a-fA-F]+)\])? -> (\d+)(?:\[([0-9a-fA-F]+)\])? (?:\[(send|receive)\] )?via (.+?)\s*$)",
     "2.4+", "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA"},
    {PatternKind::CollNet,
     R"(^(?:Coll|CollNet) (\d+)(?:/(\d+))? : (\d+) \[(send|receive)\] via (COLLNET/.+?)\s*$)",
     "2.6+", "CollNet 00/0 : 0 [send] via COLLNET/IB SHARP/0/GDRDMA"},
    {PatternKind::GraphRing, R"(^Ring (\d+) : (-?\d+) -> (-?\d+) -> (-?\d+)\s*$)", "2.10+",
     "Ring 00 : 7 -> 0 -> 1"},
    {PatternKind::RingListing, R"(^(?:Channel|Ring) (\d+)(?:/(\d+))? :((?: +\d+)*)( *\.\.\.)?\s*$)",
     "2.4+", "Channel 00/02 :    0   1   2   3"},
    {PatternKind::Init,
     R"(^(?:\[Rank \d+\] )?(?:(\w+) )?comm (\S+) rank (\d+) nranks (\d+) cudaDev (-?\d+)(?: nvmlDev (-?\d+))?(?: busId ([0-9a-fA-F]+))?(?: localSize -?\d+)?(?: used -?\d+ bytes)?(?: parent \S+)?(?: splitCount -?\d+)?(?: childCount -?\d+)?(?: color -?\d+)?(?: key -?\d+)?(?: commId 0x([0-9a-fA-F]+))?(?: localSize -?\d+)?(?: used -?\d+ bytes)? ?- Init (START|COMPLETE))",
     "2.4+", "comm 0x7f3fd4001980 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE"},
    {PatternKind::CommShape, R"(^comm (\S+) rank (\d+) nRanks (\d+) nNodes (\d+) localRanks (\d+) localRank (\d+))",
     "2.20+", "comm 0x5601 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0"},
    {PatternKind::Version, R"(^NCCL version (\d+\.\d+\.\d+)[^+\s]*(?:\+cuda(\d+(?:\.\d+)?))?)", "2.4+",
     "NCCL version 2.18.3+cuda12.2"},
    {PatternKind::UsingNetwork, R"(^Using network (.+?)\s*$)", "2.6+", "Using network IB"},
    {PatternKind::NetUsing, R"(^NET/(\S+) ?: Using(.*)$)", "2.4+",
     "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.4.19<0>"},
    {PatternKind::CudaDriver, R"(^cudaDriverVersion (\d+))", "2.13+", "cudaDriverVersion 12040"},
    {PatternKind::EnvSetByEnvironment, R"(^(NCCL_[A-Z0-9_]+) set by environment to (.*?)\s*$)", "2.4+",
     "NCCL_IB_GID_INDEX set by environment to 3."},
    {PatternKind::EnvSetTo, R"(^(NCCL_[A-Z0-9_]+) set to (.*?)\s*$)", "2.7+",
     "NCCL_SOCKET_IFNAME set to ib0"},
    {PatternKind::SettingAffinity, R"(^Setting affinity for GPU (\d+) to ([0-9a-fA-F,\-]+)\s*$)", "2.4-2.27",
     "Setting affinity for GPU 3 to ffff,ffffffff"},
    {PatternKind::TopoCpuAffinity,
     R"(^ncclTopoGetCpuAffinity: Affinity for GPU (\d+) is (empty, ignoring|[0-9,\-]+)\. \(GPU affinity = ([0-9,\-]*)(?: ; CPU affinity = ([0-9,\-]*))?\)\.?\s*$)",
     "2.28+", "ncclTopoGetCpuAffinity: Affinity for GPU 0 is 0-23. (GPU affinity = 0-23,48-71 ; CPU affinity = 0-23)."},
    {PatternKind::GraphPattern,
     R"(^Pattern (\d+), crossNic (\d+), nChannels (\d+), (?:bw|speed) ([0-9.]+)/([0-9.]+), type (\w+)/(\w+), sameChannels (\d+))",
     "2.6+", "Pattern 4, crossNic 0, nChannels 16, bw 40.000000/40.000000, type NVL/PIX, sameChannels 1"},
    {PatternKind::EnvNetName, R"(^Comm config netName reset to (NCCL_NET)=(.*?)\s*$)", "2.30+",
     "Comm config netName reset to NCCL_NET=Socket"},
};

inline constexpr size_t kPatternCount = static_cast<size_t>(PatternKind::kCount);
static_assert(sizeof(kPatterns) / sizeof(kPatterns[0]) == kPatternCount);
// Row i is PatternKind i.
static_assert([] {
  for (size_t i = 0; i < kPatternCount; ++i) {
    if (static_cast<size_t>(kPatterns[i].kind) != i) return false;
  }
  return true;
}());

// The compiled table, indexed by PatternKind.
const RE2& pattern(PatternKind kind);

}  // namespace nd
