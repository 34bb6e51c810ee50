#pragma once
// Parses the transport text after "via " on a connection line, e.g.
// `P2P/CUMEM/read`, `SHM/direct/direct`, `NET/IBext_v8/1(9)/GDRDMA`,
// `NET/AWS Libfabric/0/GDRDMA`. Network names can hold spaces and slashes, so
// the NET form is read from the right.

#include <cstdint>
#include <string>
#include <string_view>

namespace nd {

enum class TransportFamily : uint8_t { P2P, SHM, NET, CollNet, Unknown };

struct Transport {
  TransportFamily family = TransportFamily::Unknown;
  std::string raw;        // the text as printed, trailing blanks removed
  std::string mechanism;  // P2P: IPC, CUMEM, MNNVL, direct pointer, indirect,
                          // common device; SHM: direct, CE, legacy
  std::string net_name;   // NET/CollNet: IB, Socket, IBext_v8, AWS Libfabric
  int net_dev = -1;
  int proxy_rank = -1;    // PXN `(proxyRank)`
  int indirect_rank = -1; // P2P/indirect/<rank>
  bool gdr = false;       // /GDRDMA
  bool gdr_pci = false;   // /GDRDMA(PCI)
  bool shared = false;    // /Shared
  bool read = false;      // /read
  bool copy_engine = false;  // /CE
};

Transport parse_transport(std::string_view text);

const char* family_name(TransportFamily f);

// What kind of network a NET/COLLNET name is, whoever implements it:
//   Verbs      InfiniBand or RoCE through libibverbs: NCCL's own `IB`; the
//              nccl-rdma-sharp-plugins' `IBext`, `IBext_v5`..`IBext_v11`, the
//              name it loads under (`NCCL RDMA Plugin v6`..`v11`) and its UCX
//              transports (`UCX`, `UCX-RMA`, `UCX-UCT`, `UCX-UCT-RD`)
//   Libfabric  aws-ofi-nccl: `AWS Libfabric` (before 1.7), `Libfabric`
//   Socket     `Socket`, and 2.30's `Socket (stub)`
//   Unknown    anything else, and 2.30's `IB (stub)` (a build without verbs)
enum class NetFamily : uint8_t { Unknown, Verbs, Libfabric, Socket };

NetFamily net_family(std::string_view net_name);

// "P2P", "SHM", "NET/IB", "NET/Socket", ... — the label findings group by.
std::string transport_label(const Transport& t);

}  // namespace nd
