#include "parsers/transport.h"

#include "src/util/numbers.h"

namespace nd {
namespace {

bool take_suffix(std::string_view& s, std::string_view suffix) {
  if (!s.ends_with(suffix)) return false;
  s.remove_suffix(suffix.size());
  return true;
}

std::string_view trim_right(std::string_view s) {
  // A Markdown code span may close right after the name.
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '`')) s.remove_suffix(1);
  return s;
}

void parse_p2p(std::string_view rest, Transport& t) {
  // rest: text after "P2P/"
  while (true) {
    if (take_suffix(rest, "/read")) { t.read = true; continue; }
    if (take_suffix(rest, "/CE")) { t.copy_engine = true; continue; }
    break;
  }
  if (rest.starts_with("indirect/")) {
    t.mechanism = "indirect";
    std::string_view r = rest.substr(9);
    size_t end = 0;
    while (end < r.size() && r[end] >= '0' && r[end] <= '9') ++end;
    if (auto v = parse_u32(r.substr(0, end))) t.indirect_rank = static_cast<int>(*v);
    return;
  }
  t.mechanism = std::string(rest);
}

void parse_net(std::string_view rest, Transport& t) {
  // rest: text after "NET/" or "COLLNET/": <name>/<dev>[(proxy)][/GDRDMA[(PCI)]][/Shared]
  while (true) {
    if (take_suffix(rest, "/Shared")) { t.shared = true; continue; }
    if (take_suffix(rest, "/GDRDMA(PCI)")) { t.gdr = t.gdr_pci = true; continue; }
    if (take_suffix(rest, "/GDRDMA")) { t.gdr = true; continue; }
    break;
  }
  if (rest.ends_with(')')) {
    size_t open = rest.rfind('(');
    if (open != std::string_view::npos) {
      if (auto p = parse_u32(rest.substr(open + 1, rest.size() - open - 2))) {
        t.proxy_rank = static_cast<int>(*p);
        rest = rest.substr(0, open);
      }
    }
  }
  size_t slash = rest.rfind('/');
  if (slash != std::string_view::npos) {
    if (auto d = parse_u32(rest.substr(slash + 1))) {
      t.net_dev = static_cast<int>(*d);
      rest = rest.substr(0, slash);
    }
  }
  t.net_name = std::string(rest);
}

}  // namespace

Transport parse_transport(std::string_view text) {
  Transport t;
  // Transport names are printable ASCII; anything after is line noise.
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f) {
      text = text.substr(0, i);
      break;
    }
  }
  // No transport name holds two blanks in a row ("NET/AWS Libfabric/0" has
  // one): after two, the rest is another record that was joined to this line.
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if ((text[i] == ' ' || text[i] == '\t') && (text[i + 1] == ' ' || text[i + 1] == '\t')) {
      text = text.substr(0, i);
      break;
    }
  }
  text = trim_right(text);
  // RCCL appends ` comm 0x... nRanks NN`.
  if (size_t rccl = text.find(" comm 0x"); rccl != std::string_view::npos) text = text.substr(0, rccl);
  t.raw = std::string(text);
  if (text.starts_with("P2P/")) {
    t.family = TransportFamily::P2P;
    parse_p2p(text.substr(4), t);
  } else if (text.starts_with("SHM/")) {
    t.family = TransportFamily::SHM;
    std::string_view rest = text.substr(4);
    t.copy_engine = rest.find("CE") != std::string_view::npos;
    t.mechanism = std::string(rest);
  } else if (text == "direct shared memory") {
    t.family = TransportFamily::SHM;
    t.mechanism = "direct shared memory";
  } else if (text.starts_with("NET/")) {
    t.family = TransportFamily::NET;
    parse_net(text.substr(4), t);
  } else if (text.starts_with("COLLNET/")) {
    t.family = TransportFamily::CollNet;
    parse_net(text.substr(8), t);
  }
  return t;
}

const char* family_name(TransportFamily f) {
  switch (f) {
    case TransportFamily::P2P: return "P2P";
    case TransportFamily::SHM: return "SHM";
    case TransportFamily::NET: return "NET";
    case TransportFamily::CollNet: return "COLLNET";
    case TransportFamily::Unknown: return "unknown";
  }
  return "unknown";
}

NetFamily net_family(std::string_view name) {
  if (name == "Socket" || name.starts_with("Socket ")) return NetFamily::Socket;
  if (name == "IB (stub)") return NetFamily::Unknown;
  if (name == "AWS Libfabric" || name == "Libfabric") return NetFamily::Libfabric;
  // `IB`, `IBext`, `IBext_v8`; `RoCE` is no NCCL name but users' allow-lists use it.
  if (name.starts_with("IB") || name.starts_with("RoCE") || name.starts_with("NCCL RDMA Plugin") ||
      name == "UCX" || name.starts_with("UCX-")) {
    return NetFamily::Verbs;
  }
  return NetFamily::Unknown;
}

std::string transport_label(const Transport& t) {
  switch (t.family) {
    case TransportFamily::NET: return "NET/" + t.net_name;
    case TransportFamily::CollNet: return "COLLNET/" + t.net_name;
    case TransportFamily::Unknown: return t.raw;
    default: return family_name(t.family);
  }
}

}  // namespace nd
