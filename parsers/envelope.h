#pragma once
// Strips what launchers and log collectors put in front of a program's line:
// control bytes, ISO/CRI timestamps, Open MPI 4/5 tags, srun labels, Hydra
// ranks, torchrun and PyTorch rank prefixes, Ray actors, pdsh host names, and
// what pastes add: Markdown quotes, notebook `# MAGIC `, indentation.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd {

enum class Launcher : uint8_t {
  None, OpenMpi, Slurm, Hydra, Torchrun, Pdsh, Ray, Kubernetes,
};

struct Envelope {
  std::string_view payload;  // the line without any recognised prefix
  Launcher launcher = Launcher::None;  // innermost launcher prefix seen
  std::optional<uint32_t> launcher_rank;
  Launcher rank_from = Launcher::None;  // the prefix that gave launcher_rank
  std::string_view launcher_host;  // pdsh/clush host
  size_t prefix_length = 0;  // bytes removed from the (cleaned) line
};

// Removes ANSI escape sequences and NUL bytes. Returns `line` itself when it
// has none, else a view of `scratch`.
std::string_view strip_control(std::string_view line, std::string& scratch);

// Strips prefixes outermost first until none matches. `line` must already be
// free of control bytes.
Envelope strip_envelope(std::string_view line);

// The length of an Open MPI --tag-output tag (`[1,5]<stdout>:` and one
// space, any of its forms) at the start of `line`, when strip_envelope()
// takes it first; 0 otherwise.
size_t ompi_tag_length(std::string_view line);

// Another tool's output (nvidia-smi, nccl-tests) gathered with pdsh/clush:
// the length of a `host: ` prefix, 0 when there is none. Looser than the
// prefix strip_envelope() takes before NCCL text: the host must start with
// a letter and hold a digit, '-' or '.', as node names do and words do not.
size_t output_host_prefix(std::string_view payload, std::string_view& host);

// An Ansible ad-hoc header, `gpu07 | CHANGED | rc=0 >>`: the host of the
// lines that follow it. Empty when `payload` is no such header.
std::string_view ansible_section_host(std::string_view payload);

}  // namespace nd
