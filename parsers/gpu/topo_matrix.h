#pragma once
// `nvidia-smi topo -m` (also `topo --matrix`, `topo -mp`): the link class
// between every pair of GPUs and NICs, each GPU's CPU and NUMA affinity, and
// the Legend and NIC Legend printed after the matrix. The NIC Legend names
// the NICn columns, so the record is kept until the legend ends.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/gpu/gpu_records.h"

namespace nd {

class TopoMatrixReader final : public BlockReader {
 public:
  // The columns after the devices' own.
  enum class Affinity : uint8_t { Cpu, Numa, GpuNuma };

  using BlockReader::BlockReader;

  bool take(std::string_view payload, uint64_t line) override;
  bool in_block() const override { return state_ != State::Idle; }
  void finish() override;

 private:
  enum class State : uint8_t {
    Idle,
    Rows,       // after the header: matrix rows
    AfterRows,  // a blank line ended the rows; the Legend may follow
    Legend,     // "Legend:" and its "X = Self" lines
    NicLegend,  // "NIC Legend:" and its "NIC0: mlx5_0" lines
  };

  bool start(std::string_view payload, uint64_t line);
  bool take_row(std::string_view payload);
  bool take_legend(std::string_view s);
  bool take_nic_legend(std::string_view s);
  bool rows_complete() const;
  bool nic_names_complete() const;
  void emit();

  State state_ = State::Idle;
  uint64_t header_line_ = 0;
  std::vector<std::string> devices_;   // as printed ("NIC3", "mlx5_0")
  std::vector<Affinity> tail_;         // the affinity columns, in printed order
  std::vector<std::vector<std::string>> cells_;  // per device row, empty until read
  std::vector<std::vector<std::string>> affinity_;  // per device row: the tail cells
  std::vector<std::string> nic_names_;  // per device: the NIC Legend's name, or empty
  bool legend_entries_ = false;         // a "SYS = ..." line was read
  std::string_view wrap_rest_;          // the unread end of a legend line cut by the terminal
  uint32_t noise_ = 0;                  // foreign lines since the last line of ours
};

}  // namespace nd
