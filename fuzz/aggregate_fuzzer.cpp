// libFuzzer target: arbitrary bytes as `preflight --aggregate` input, that is
// launcher output interleaving the JSON probe records of many nodes. The
// records are reassembled and decoded, judged by the hardware and cluster
// rules, and rendered in every output format. Checks that the drain reason
// stays one line, whatever the records hold.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "src/pipeline/preflight.h"
#include "src/report/preflight_output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  nd::RecordSet records = nd::read_probe_records(input);
  nd::PreflightReport report = nd::preflight_aggregate(std::move(records), nd::Expectations{}, "fuzz.jsonl", true);
  (void)nd::render_preflight_text(report);
  (void)nd::render_preflight_json(report);
  (void)nd::render_preflight_junit(report);
  (void)nd::render_preflight_prometheus(report);
  if (report.reason.find_first_of("\n\r") != std::string::npos) {
    fprintf(stderr, "invariant broken: the drain reason spans several lines\n");
    abort();
  }
  return 0;
}
