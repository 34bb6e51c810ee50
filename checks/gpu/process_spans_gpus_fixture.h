#pragma once
// Test helper for ND6003-ND6005: an nvidia-smi table in the R550 layout
// (91 wide, 8x H100), built from its GPU boxes and process rows.

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "src/model/model_fixture.h"

namespace nd::smi {

inline constexpr const char* kBus[] = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
// A training process's name as nvidia-smi cuts it.
inline constexpr const char* kPy = "...megatron-py310/bin/python3.10";

// "|   0  NVIDIA H100 …" and the two rows under it, then the box's border.
inline std::vector<std::string> gpu(int index, int mem_mib, int util) {
  return {
      fmt::format("| {:>3}  NVIDIA H100 80GB HBM3          On  |   00000000:{}:00.0 Off |                    0 |",
                  index, kBus[index]),
      fmt::format("| N/A   52C    P0{:>16} /  700W |{:>11} /  81559MiB |{:>8}      Default |",
                  util > 5 ? "610W" : "71W", fmt::format("{}MiB", mem_mib), fmt::format("{}%", util)),
      "|                                         |                        |             Disabled |",
      "+-----------------------------------------+------------------------+----------------------+",
  };
}

// A Processes row; `mem` as printed ("71224MiB", "N/A"), `pid` too ("N/A").
inline std::string process(int gpu, std::string_view pid, std::string_view type, std::string_view name,
                           std::string_view mem) {
  return fmt::format("|{:>5}   N/A  N/A{:>16}{:>7}   {:<32}{:>14} |", gpu, pid, type, name, mem);
}

// The whole table: `rows` are the process rows; none prints "No running
// processes found"; `cut` stops before the Processes box (`| head`).
inline std::vector<std::string> table(const std::vector<std::vector<std::string>>& gpus,
                                      const std::vector<std::string>& rows, bool cut = false) {
  std::vector<std::string> out = {
      "Thu Apr 18 21:07:55 2024       ",
      "+-----------------------------------------------------------------------------------------+",
      "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |",
      "|-----------------------------------------+------------------------+----------------------+",
      "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
      "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
      "|                                         |                        |               MIG M. |",
      "|=========================================+========================+======================|",
  };
  for (const auto& box : gpus) out.insert(out.end(), box.begin(), box.end());
  if (cut) return out;
  for (const char* line :
       {"                                                                                           ",
        "+-----------------------------------------------------------------------------------------+",
        "| Processes:                                                                              |",
        "|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |",
        "|        ID   ID                                                               Usage      |",
        "|=========================================================================================|"}) {
    out.emplace_back(line);
  }
  if (rows.empty()) {
    out.emplace_back("|  No running processes found                                                             |");
  }
  out.insert(out.end(), rows.begin(), rows.end());
  out.emplace_back("+-----------------------------------------------------------------------------------------+");
  return out;
}

// Every line under a pdsh prefix ("gpu07: "), as `pdsh -w gpu07 nvidia-smi` prints them.
inline std::vector<std::string> on_host(std::string_view host, std::vector<std::string> lines) {
  for (auto& l : lines) l = fmt::format("{}: {}", host, l);
  return lines;
}

inline JobModel model_of(const std::vector<std::string>& lines) {
  std::vector<std::string_view> views(lines.begin(), lines.end());
  return model_from_lines(views);
}

}  // namespace nd::smi
