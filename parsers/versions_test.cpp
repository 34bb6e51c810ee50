// Every line of testdata/lines/nccl-<version>.txt classifies as its label says.

#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "parsers/envelope.h"
#include "parsers/line_classifier.h"
#include "parsers/nccl_prefix.h"

using namespace nd;

namespace {

std::string kind_of(std::string_view line) {
  HeaderScan scan = scan_nccl_headers(line);
  if (scan.count == 0) {
    std::string_view rest;
    return is_raw_banner(line, rest) ? "banner" : "none";
  }
  Event ev = classify(scan.headers[0]);
  switch (ev.index()) {
    case 0: return "unknown";
    case 1: return "ignored";
    case 2: return "malformed";
    case 3: return "connection";
    case 4: return "collnet";
    case 5: return "listing";
    case 6: return "graphring";
    case 7: return "trees";
    case 8: return "init";
    case 9: return "commshape";
    case 10: return "version";
    case 11: return "usingnetwork";
    case 12: return "netusing";
    case 13: return "cudadriver";
    case 14: return "env";
    case 15: return "warn";
    case 16: return "affinity";
    case 17: return "graphpattern";
  }
  return "?";
}

}  // namespace

TEST_CASE("labelled real lines of every NCCL generation classify as labelled") {
  namespace fs = std::filesystem;
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(ND_SOURCE_ROOT) / "testdata" / "lines")) {
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      auto tab = line.find('\t');
      REQUIRE(tab != std::string::npos);
      std::string expected = line.substr(0, tab);
      std::string text = line.substr(tab + 1);
      INFO(entry.path().filename().string() << ": " << text);
      CHECK(kind_of(text) == expected);
      ++checked;
    }
  }
  CHECK(checked >= 40);
}
