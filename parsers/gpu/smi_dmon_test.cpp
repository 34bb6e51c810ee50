#include "parsers/gpu/smi_dmon.h"

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace nd;

namespace {

std::set<uint64_t> feed_dmon(SmiDmonReader& reader, const std::string& name) {
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/smi_dmon/" + name);
  REQUIRE(in.good());
  std::set<uint64_t> claimed;
  uint64_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (reader.take(line, n)) claimed.insert(n);
  }
  reader.finish();
  return claimed;
}

// "2-15,17": the claimed line numbers, as ranges.
std::string spans(const std::set<uint64_t>& s) {
  std::string out;
  for (auto it = s.begin(); it != s.end();) {
    uint64_t first = *it, last = first;
    while (++it != s.end() && *it == last + 1) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(first);
    if (last != first) out += '-' + std::to_string(last);
  }
  return out;
}

}  // namespace

TEST_CASE("dmon, R535 default (-s puc): gtemp mtemp and jpg ofa, four GPUs") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "default_r535.txt");
  CHECK(spans(claimed) == "2-15");
  CHECK(out.kinds == std::vector<SideKind>{SideKind::SmiDmon});
  REQUIRE(out.samples.size() == 12);
  const GpuSample& s = out.samples[0];
  CHECK(s.from == SideKind::SmiDmon);
  CHECK(s.line == 4);
  CHECK(s.index == 0u);
  CHECK(s.power_w == 312.0);
  CHECK(s.temp_c == 61.0);
  CHECK(s.util_pct == 98.0);
  CHECK(s.mem_bw_util_pct == 41.0);
  CHECK(s.sm_clock_mhz == 1980.0);
  CHECK_FALSE(s.mem_used_mib);  // `mem` is bandwidth; no `fb` column
  CHECK_FALSE(s.power_violation);
  CHECK(s.time.empty());
  CHECK(s.bus_id.empty());
  const GpuSample& last = out.samples[11];
  CHECK(last.index == 3u);
  CHECK(last.power_w == 293.0);
  CHECK(last.sm_clock_mhz == 1950.0);
  CHECK(last.line == 15);
}

TEST_CASE("dmon, R375 -s pucvmet: one `temp`, violations, fb, `-` for ECC, the header again") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "old_temp_pucvmet_r375.txt");
  CHECK(spans(claimed) == "2-15");
  REQUIRE(out.samples.size() == 10);
  const GpuSample& a = out.samples[0];
  CHECK(a.temp_c == 79.0);
  CHECK(a.power_w == 142.0);
  CHECK(a.mem_used_mib == 15240.0);
  CHECK(a.power_violation == 0.0);
  CHECK(a.thermal_violation == 0.0);
  CHECK(out.samples[2].power_violation == 4.0);
  CHECK(out.samples[5].thermal_violation == 1.0);  // GPU 1, `bool`
  CHECK(out.samples[5].index == 1u);
  CHECK(out.samples[6].line == 12);  // after the second header
  CHECK(out.samples[6].power_violation == 12.0);
}

TEST_CASE("dmon, R450: gtemp mtemp without jpg ofa, eight GPUs, in a fence, stopped with ^C") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "gtemp_8gpu_r450.txt");
  CHECK(spans(claimed) == "3-30");
  REQUIRE(out.samples.size() == 24);
  CHECK(out.samples[7].index == 7u);
  CHECK(out.samples[7].temp_c == 54.0);  // gtemp, not mtemp
  CHECK(out.samples[7].mem_bw_util_pct == 26.0);
  CHECK(out.samples[23].power_w == 264.0);
}

TEST_CASE("dmon, R550 -s pucvmet -o DT: Date and Time, fb bar1 ccpm, a `-` memory temperature") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "dt_all_metrics_r550.txt");
  CHECK(spans(claimed) == "2-9");
  REQUIRE(out.samples.size() == 6);
  const GpuSample& s = out.samples[2];
  CHECK(s.time == "20250311 14:07:06");
  CHECK(s.index == 0u);
  CHECK(s.power_w == 288.0);
  CHECK(s.temp_c == 66.0);
  CHECK(s.util_pct == 92.0);
  CHECK(s.sm_clock_mhz == 2460.0);
  CHECK(s.power_violation == 12.0);
  CHECK(s.thermal_violation == 0.0);
  CHECK(s.mem_used_mib == 40311.0);
  CHECK(out.samples[5].time == "20250311 14:07:07");
  CHECK(out.samples[5].index == 1u);
}

TEST_CASE("dmon, R545 -s mutc -o TD: fb first, a blank line pasted in, trailing blanks") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "td_mutc_blank_r545.txt");
  CHECK(spans(claimed) == "2-4,6-8");
  REQUIRE(out.samples.size() == 4);
  const GpuSample& s = out.samples[1];
  CHECK(s.time == "20250117 09:41:31");
  CHECK(s.mem_used_mib == 18321.0);
  CHECK(s.util_pct == 71.0);
  CHECK(s.mem_bw_util_pct == 38.0);
  CHECK(s.sm_clock_mhz == 2520.0);
  CHECK_FALSE(s.power_w);
  CHECK_FALSE(s.temp_c);
}

TEST_CASE("dmon, R470 -o T -s u: Time only") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "time_only_u_r470.txt");
  CHECK(spans(claimed) == "2-9");
  REQUIRE(out.samples.size() == 6);
  CHECK(out.samples[0].time == "23:59:58");
  CHECK(out.samples[0].util_pct == 99.0);
  CHECK(out.samples[5].time == "00:00:00");
  CHECK(out.samples[5].mem_bw_util_pct == 57.0);
  CHECK_FALSE(out.samples[5].power_w);
}

TEST_CASE("dmon, R560 -i 3 -o D -s p: Date only") {
  GpuRecords out;
  SmiDmonReader r(out);
  feed_dmon(r, "date_only_p_r560.txt");
  REQUIRE(out.samples.size() == 3);
  CHECK(out.samples[2].time == "20240229");
  CHECK(out.samples[2].index == 3u);
  CHECK(out.samples[2].power_w == 73.0);
  CHECK(out.samples[2].temp_c == 38.0);
}

TEST_CASE("dmon in the background of a job: the job's lines between the rows are not claimed") {
  GpuRecords out;
  SmiDmonReader r(out);
  auto claimed = feed_dmon(r, "job_log_interleaved_r535.txt");
  CHECK(spans(claimed) == "3-6,10,12,15-16,20-21");
  REQUIRE(out.samples.size() == 8);
  CHECK(out.samples[2].line == 10);
  CHECK(out.samples[2].util_pct == 99.0);
  CHECK(out.samples[4].temp_c == 64.0);
  CHECK(out.samples[7].sm_clock_mhz == 1410.0);
  CHECK(r.in_block());
}

TEST_CASE("dmon: cells that are not numbers; - and N/A are absent values") {
  GpuRecords out;
  SmiDmonReader r(out);
  CHECK(r.take("#gpu   pwr gtemp mtemp    sm   mem", 1));
  CHECK(r.take("# Idx     W     C     C     %     %", 2));
  CHECK(r.take("    0     -   N/A     -   3.5     0", 3));
  CHECK_FALSE(r.take("    0   inf    40     -     1     0", 4));
  CHECK_FALSE(r.take("    0   nan    40     -     1     0", 5));
  CHECK_FALSE(r.take("    x    70    40     -     1     0", 6));
  CHECK_FALSE(r.take("    0    70    40     -     1", 7));
  CHECK_FALSE(r.take("    0    70    40     -     1     0     0", 8));
  CHECK_FALSE(r.take("    0    70    40     -    1%     0", 9));
  CHECK_FALSE(r.take("", 10));
  REQUIRE(out.samples.size() == 1);
  CHECK_FALSE(out.samples[0].power_w);
  CHECK_FALSE(out.samples[0].temp_c);
  CHECK(out.samples[0].util_pct == 3.5);
  CHECK(out.samples[0].mem_bw_util_pct == 0.0);
}

TEST_CASE("dmon: a new header with other columns replaces the old one") {
  GpuRecords out;
  SmiDmonReader r(out);
  CHECK(r.take("# gpu   pwr  temp", 1));
  CHECK(r.take("    0    40    35", 2));
  CHECK(r.take("#Time        gpu    sm   mem   enc   dec", 3));
  CHECK(r.take("#HH:MM:SS    Idx     %     %     %     %", 4));
  CHECK_FALSE(r.take("    0    40    35", 5));
  CHECK(r.take(" 10:00:01      0    12     4     0     0", 6));
  REQUIRE(out.samples.size() == 2);
  CHECK(out.samples[1].time == "10:00:01");
  CHECK(out.samples[1].util_pct == 12.0);
}

TEST_CASE("dmon: lookalikes are not claimed, in a block or out of it") {
  GpuRecords out;
  SmiDmonReader r(out);
  const char* before[] = {
      "    0    312     61     70     98     41      0      0      0      0   2619   1980",  // rows need a header
      "# Idx      W      C      C      %      %",                                             // units need names
      "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command",         // pmon
      "# Idx           #    C/G      %      %      %      %      %      %    name",
      "    0      13532     C     99      0      -      -      -      -    python",
      "#Entity   SMACT  SMOCC  DRAMA",  // dcgmi dmon
      "ID",
      "GPU 0     0.912  0.401  0.553",
      "# gpu memory is full, see below",
      "# gpu sm",  // one known name only
      "| GPU | util % | mem % |",
      "|---|---|---|",
      "|   0  NVIDIA H100 80GB HBM3          On  |   00000000:06:00.0 Off |                    0 |",
      "Epoch 3: 100%|##########| 1000/1000 [05:12<00:00, 3.20it/s, loss=0.31]",
      "GPU0     X      NV18    NV18    0-55,112-167    0               N/A",
  };
  uint64_t n = 0;
  for (const char* line : before) CHECK_MESSAGE(!r.take(line, ++n), line);
  CHECK_FALSE(r.in_block());
  CHECK(out.kinds.empty());

  CHECK(r.take("# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk", ++n));
  const char* inside[] = {
      "step 120 | 61 % | 0.25 s | loss 1.5 | 3 | 4 | 5 | 6 | 7 | 8",
      "    1    2    3    4    5    6    7    8    9",  // one short
      "| 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |",
      "    0      13532     C     99      0      -      -      -      -    python",
      "0:00:01 12 3 4 5 6 7 8 9 10",
  };
  for (const char* line : inside) CHECK_MESSAGE(!r.take(line, ++n), line);
  CHECK(out.samples.empty());
}

TEST_CASE("dmon: a names line of columns unknown here is taken once its units line follows") {
  GpuRecords out;
  SmiDmonReader r(out);
  // Only a -s letter newer than this reader (or --gpm-metrics alone).
  CHECK_FALSE(r.take("#Time        gpu smutil smocc", 1));
  CHECK(r.take("#HH:MM:SS    Idx  GPM:%  GPM:%", 2));
  CHECK(r.in_block());
  CHECK(r.take(" 12:00:00      0     41     17", 3));
  REQUIRE(out.samples.size() == 1);
  CHECK(out.samples[0].time == "12:00:00");
  CHECK(out.samples[0].index == 0u);
  CHECK_FALSE(out.samples[0].util_pct);

  // Without the units line right after, such a line is nothing.
  GpuRecords out2;
  SmiDmonReader r2(out2);
  CHECK_FALSE(r2.take("# gpu temperature alarm", 1));
  CHECK_FALSE(r2.take("all good", 2));
  CHECK_FALSE(r2.take("# Idx  C  %", 3));
  CHECK_FALSE(r2.in_block());
  CHECK(out2.kinds.empty());
}
