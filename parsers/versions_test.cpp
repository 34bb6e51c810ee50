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

// The label of an event's type, as the files write it.
const char* label(const Event& ev) {
  return std::visit(
      [](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, UnknownEvent>) return "unknown";
        if constexpr (std::is_same_v<T, IgnoredEvent>) return "ignored";
        if constexpr (std::is_same_v<T, MalformedEvent>) return "malformed";
        if constexpr (std::is_same_v<T, ConnectionEvent>) return "connection";
        if constexpr (std::is_same_v<T, CollNetEvent>) return "collnet";
        if constexpr (std::is_same_v<T, RingListingEvent>) return "listing";
        if constexpr (std::is_same_v<T, GraphRingEvent>) return "graphring";
        if constexpr (std::is_same_v<T, TreesEvent>) return "trees";
        if constexpr (std::is_same_v<T, InitEvent>) return "init";
        if constexpr (std::is_same_v<T, CommShapeEvent>) return "commshape";
        if constexpr (std::is_same_v<T, VersionEvent>) return "version";
        if constexpr (std::is_same_v<T, UsingNetworkEvent>) return "usingnetwork";
        if constexpr (std::is_same_v<T, NetUsingEvent>) return "netusing";
        if constexpr (std::is_same_v<T, CudaDriverEvent>) return "cudadriver";
        if constexpr (std::is_same_v<T, EnvEvent>) return "env";
        if constexpr (std::is_same_v<T, WarnEvent>) return "warn";
        if constexpr (std::is_same_v<T, AffinityEvent>) return "affinity";
        if constexpr (std::is_same_v<T, GraphPatternEvent>) return "graphpattern";
        if constexpr (std::is_same_v<T, NetNoteEvent>) return "netnote";
        if constexpr (std::is_same_v<T, BootstrapEvent>) return "bootstrap";
        if constexpr (std::is_same_v<T, NvlsChannelsEvent>) return "nvlschannels";
        if constexpr (std::is_same_v<T, NvlsConnectedEvent>) return "nvlsconnected";
        if constexpr (std::is_same_v<T, ReturnTraceEvent>) return "trace";
      },
      ev);
}

std::string kind_of(std::string_view line) {
  HeaderScan scan = scan_nccl_headers(line);
  if (scan.count == 0) {
    std::string_view rest;
    return is_raw_banner(line, rest) ? "banner" : "none";
  }
  return label(classify(scan.headers[0]));
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
