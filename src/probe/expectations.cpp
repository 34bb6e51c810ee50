#include "src/probe/expectations.h"

#include <cstdlib>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/node_snapshot.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

std::optional<uint64_t> parse_size(std::string_view v) {
  if (v == "unlimited" || v == "infinity") return kMemlockUnlimited;
  uint64_t mult = 1;
  if (!v.empty()) {
    switch (v.back()) {
      case 'K': case 'k': mult = 1ull << 10; break;
      case 'M': case 'm': mult = 1ull << 20; break;
      case 'G': case 'g': mult = 1ull << 30; break;
      default: break;
    }
    if (mult != 1) v.remove_suffix(1);
  }
  auto n = parse_u64(v);
  if (!n || *n > UINT64_MAX / mult) return std::nullopt;
  return *n * mult;
}

std::string set_one(std::string_view item, Expectations& e) {
  size_t eq = item.find('=');
  if (eq == std::string_view::npos) return fmt::format("expectation '{}' is not key=value", item);
  std::string_view key = trim(item.substr(0, eq));
  std::string_view val = trim(item.substr(eq + 1));
  auto bad = [&](std::string_view want) { return fmt::format("expectation {}={}: expected {}", key, val, want); };
  if (key == "hcas" || key == "gpus" || key == "nodes") {
    auto n = parse_u32(val);
    if (!n) return bad("a count");
    (key == "hcas" ? e.hcas : key == "gpus" ? e.gpus : e.nodes) = *n;
  } else if (key == "rate") {
    std::string s(val);
    char* end = nullptr;
    double r = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || r <= 0) return bad("Gb/s, e.g. 400");
    e.rate = r;
  } else if (key == "link") {
    if (val == "ib" || val == "infiniband" || val == "InfiniBand") {
      e.link = "ib";
    } else if (val == "roce" || val == "eth" || val == "ethernet" || val == "Ethernet") {
      e.link = "roce";
    } else {
      return bad("ib or roce");
    }
  } else if (key == "gdr") {
    if (val == "yes" || val == "true" || val == "1") {
      e.gdr = true;
    } else if (val == "no" || val == "false" || val == "0") {
      e.gdr = false;
    } else {
      return bad("yes or no");
    }
  } else if (key == "memlock") {
    auto m = parse_size(val);
    if (!m) return bad("bytes (K/M/G suffix) or unlimited");
    e.memlock = *m;
  } else {
    return fmt::format("unknown expectation '{}' (known: hcas, rate, link, gdr, memlock, gpus, nodes)", key);
  }
  return "";
}

}  // namespace

std::string parse_expectations(std::string_view spec, Expectations& e) {
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = trim(spec.substr(0, comma));
    if (!item.empty()) {
      if (std::string err = set_one(item, e); !err.empty()) return err;
    }
    if (comma == std::string_view::npos) break;
    spec.remove_prefix(comma + 1);
  }
  return "";
}

std::string parse_expectations_file(std::string_view text, Expectations& e) {
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    ++line_no;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (!line.empty()) {
      if (std::string err = set_one(line, e); !err.empty()) return fmt::format("line {}: {}", line_no, err);
    }
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return "";
}

std::string expectations_str(const Expectations& e) {
  std::vector<std::string> parts;
  if (e.hcas) parts.push_back(fmt::format("hcas={}", *e.hcas));
  if (e.rate) parts.push_back(fmt::format("rate={}", *e.rate));
  if (e.link) parts.push_back("link=" + *e.link);
  if (e.gdr) parts.push_back(*e.gdr ? "gdr=yes" : "gdr=no");
  if (e.memlock) {
    parts.push_back(*e.memlock == kMemlockUnlimited ? "memlock=unlimited" : fmt::format("memlock={}", *e.memlock));
  }
  if (e.gpus) parts.push_back(fmt::format("gpus={}", *e.gpus));
  if (e.nodes) parts.push_back(fmt::format("nodes={}", *e.nodes));
  return fmt::format("{}", fmt::join(parts, ","));
}

}  // namespace nd
