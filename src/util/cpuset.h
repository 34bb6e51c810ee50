#pragma once
// A set of CPU ids as printed by NCCL (hex masks, range lists), Slurm (hex
// masks) and Open MPI (logical core/hwt ids), capped at kMaxCpus.

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd {

class CpuSet {
 public:
  static constexpr size_t kMaxCpus = 4096;

  void add(size_t cpu) {
    if (cpu < kMaxCpus) bits_.set(cpu);
  }
  bool has(size_t cpu) const { return cpu < kMaxCpus && bits_.test(cpu); }
  size_t count() const { return bits_.count(); }
  bool empty() const { return bits_.none(); }
  bool intersects(const CpuSet& o) const { return (bits_ & o.bits_).any(); }
  CpuSet operator&(const CpuSet& o) const {
    CpuSet s;
    s.bits_ = bits_ & o.bits_;
    return s;
  }
  friend bool operator==(const CpuSet&, const CpuSet&) = default;
  // "0-23,48-71"
  std::string to_string() const;

 private:
  std::bitset<kMaxCpus> bits_;
};

// `03f03f`, `ffff,ffffffff`, `0x3ffff00003ffff` (bit i = CPU i).
std::optional<CpuSet> parse_cpu_mask(std::string_view hex);
// `0-23,48-71`, `2`, `0,4,8`.
std::optional<CpuSet> parse_cpu_list(std::string_view list);

}  // namespace nd
