#include "parsers/gpu/side_stream.h"

#include <cctype>

#include <fmt/format.h>

#include "parsers/gpu/horovod_timeline.h"
#include "parsers/gpu/nccl_tests.h"
#include "parsers/gpu/smi_csv.h"
#include "parsers/gpu/smi_dmon.h"
#include "parsers/gpu/smi_table.h"
#include "parsers/gpu/topo_matrix.h"
#include "src/util/numbers.h"

namespace nd {

SideStream::SideStream() {
  // In the order they are asked: the most distinctive openers first.
  readers_.push_back(std::make_unique<SmiTableReader>(records));
  readers_.push_back(std::make_unique<TopoMatrixReader>(records));
  readers_.push_back(std::make_unique<NcclTestsReader>(records));
  readers_.push_back(std::make_unique<HorovodTimelineReader>(records));
  readers_.push_back(std::make_unique<SmiDmonReader>(records));
  readers_.push_back(std::make_unique<SmiCsvReader>(records));
}

bool SideStream::feed(std::string_view payload, uint64_t line) {
  const BlockReader* asked = nullptr;
  if (current_ && current_->in_block()) {
    if (current_->take(payload, line)) return true;
    asked = current_;
  }
  // A sampling loop (dmon, a CSV query) stays open while other tools print
  // between its rows: a line it does not take may open another format.
  for (auto& reader : readers_) {
    if (reader.get() != asked && reader->take(payload, line)) {
      current_ = reader.get();
      return true;
    }
  }
  return false;
}

void SideStream::finish() {
  for (auto& reader : readers_) reader->finish();
  current_ = nullptr;
}

namespace {

std::optional<uint64_t> hex(std::string_view s) {
  if (s.empty() || s.size() > 16) return std::nullopt;
  return parse_hex64(s);
}

}  // namespace

std::string canonical_bus_id(std::string_view text) {
  std::string s;
  for (char c : text) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view v = s;
  if (v.starts_with("0x")) v.remove_prefix(2);
  size_t colons = 0;
  for (char c : v) colons += c == ':';
  std::optional<uint64_t> domain = 0, bus, device = 0, function = 0;
  if (colons == 0) {
    // NCCL's busId without a domain ("6000": bus 0x06, device 0, function 0),
    // or nccl-tests' bare bus ("0x06", two digits).
    if (v.size() <= 2) {
      bus = hex(v);
    } else {
      auto id = hex(v);
      if (!id) return {};
      bus = (*id >> 12) & 0xff;
      device = (*id >> 4) & 0xff;
      function = *id & 0xf;
      domain = *id >> 20;
    }
  } else {
    size_t first = v.find(':');
    size_t second = v.find(':', first + 1);
    std::string_view a = v.substr(0, first);
    std::string_view b = colons == 1 ? v.substr(first + 1) : v.substr(first + 1, second - first - 1);
    std::string_view rest = colons == 1 ? std::string_view{} : v.substr(second + 1);
    if (colons == 1) {  // "06:00.0"
      domain = 0;
      bus = hex(a);
      rest = b;
    } else {
      domain = hex(a);
      bus = hex(b);
    }
    size_t dot = rest.find('.');
    device = hex(rest.substr(0, dot));
    function = dot == std::string_view::npos ? std::optional<uint64_t>(0) : hex(rest.substr(dot + 1));
  }
  if (!domain || !bus || !device || !function || *bus > 0xff || *device > 0x1f || *function > 7 || *domain > 0xffff) {
    return {};
  }
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", *domain, *bus, *device, *function);
}

}  // namespace nd
