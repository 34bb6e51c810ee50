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
  // One name per alternative and no catch-all: a new event type fails to
  // compile here until its label is chosen.
  struct Label {
    const char* operator()(const UnknownEvent&) const { return "unknown"; }
    const char* operator()(const IgnoredEvent&) const { return "ignored"; }
    const char* operator()(const MalformedEvent&) const { return "malformed"; }
    const char* operator()(const ConnectionEvent&) const { return "connection"; }
    const char* operator()(const CollNetEvent&) const { return "collnet"; }
    const char* operator()(const RingListingEvent&) const { return "listing"; }
    const char* operator()(const GraphRingEvent&) const { return "graphring"; }
    const char* operator()(const TreesEvent&) const { return "trees"; }
    const char* operator()(const InitEvent&) const { return "init"; }
    const char* operator()(const CommShapeEvent&) const { return "commshape"; }
    const char* operator()(const VersionEvent&) const { return "version"; }
    const char* operator()(const UsingNetworkEvent&) const { return "usingnetwork"; }
    const char* operator()(const NetUsingEvent&) const { return "netusing"; }
    const char* operator()(const CudaDriverEvent&) const { return "cudadriver"; }
    const char* operator()(const EnvEvent&) const { return "env"; }
    const char* operator()(const WarnEvent&) const { return "warn"; }
    const char* operator()(const AffinityEvent&) const { return "affinity"; }
    const char* operator()(const GraphPatternEvent&) const { return "graphpattern"; }
    const char* operator()(const NetNoteEvent&) const { return "netnote"; }
  };
  return std::visit(Label{}, classify(scan.headers[0]));
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
