#include "parsers/net_devices.h"

#include <re2/re2.h>

namespace nd {
namespace {

std::string_view sv(re2::StringPiece p) { return {p.data(), p.size()}; }

}  // namespace

std::vector<NetDeviceEntry> parse_net_devices(std::string_view list) {
  // IB items: index, HCA, port, optional rail/plane, link layer.
  static const re2::RE2 kIbItem(R"(\[(\d{1,6})\]\s?([A-Za-z0-9_.\-]{1,64}):(\d{1,5})(?::\d{1,6}){0,2}/([A-Za-z]{1,16}))");
  // Socket items: index, interface, address.
  static const re2::RE2 kSocketItem(R"(\[(\d{1,6})\]([A-Za-z0-9_.@\-]{1,64}):([^\s<>\[\]]{1,64}<\d{1,6}>))");
  std::vector<NetDeviceEntry> out;
  if (size_t oob = list.find(';'); oob != std::string_view::npos) list = list.substr(0, oob);
  constexpr size_t kMaxDevices = 64;
  re2::StringPiece input(list.data(), list.size());
  int index = 0;
  int port = 0;
  re2::StringPiece name, layer;
  bool any_ib = false;
  while (out.size() < kMaxDevices && re2::RE2::FindAndConsume(&input, kIbItem, &index, &name, &port, &layer)) {
    any_ib = true;
    out.push_back({index, sv(name), port, sv(layer), {}});
  }
  if (any_ib) return out;
  input = re2::StringPiece(list.data(), list.size());
  re2::StringPiece address;
  while (out.size() < kMaxDevices && re2::RE2::FindAndConsume(&input, kSocketItem, &index, &name, &address)) {
    out.push_back({index, sv(name), -1, {}, sv(address)});
  }
  return out;
}

}  // namespace nd
