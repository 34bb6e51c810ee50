#include "parsers/gpu/horovod_timeline.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include <nlohmann/json.hpp>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

using nlohmann::json;

// Where the object that opens at s[from] ('{') closes, or npos when the
// line ends first (a write cut short by a killed job).
size_t object_end(std::string_view s, size_t from) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = from; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// Reads one event object into a TraceEvent with nlohmann's SAX parser: no
// DOM, no allocation once the strings have grown, no exceptions.
class EventSax {
 public:
  using Event = HorovodTimelineReader::TraceEvent;
  explicit EventSax(Event& e) : e_(e) {}

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t v) { return number(static_cast<double>(v), v); }
  bool number_unsigned(json::number_unsigned_t v) {
    return number(static_cast<double>(v), static_cast<int64_t>(std::min<json::number_unsigned_t>(v, INT64_MAX)));
  }
  bool number_float(json::number_float_t v, const json::string_t&) {
    return number(v, std::fabs(v) < 9e18 ? static_cast<int64_t>(v) : 0);  // NaN too: 0
  }
  bool string(json::string_t& v) {
    if (depth_ == 1 && key_ == Key::Ph) e_.ph = v;
    if (depth_ == 1 && key_ == Key::Name) e_.name = v;
    if (depth_ == 2 && in_args_ && arg_ == Arg::Name) e_.tensor = v;
    return value();
  }
  bool binary(json::binary_t&) { return value(); }
  bool start_object(std::size_t) {
    if (depth_ == 0 && seen_top_) return false;
    seen_top_ = true;
    if (depth_ == 1 && key_ == Key::Args) in_args_ = true;
    ++depth_;
    return true;
  }
  bool end_object() {
    if (--depth_ == 1) in_args_ = false;
    return true;
  }
  bool start_array(std::size_t) { return depth_++ > 0; }  // an array is no event
  bool end_array() {
    --depth_;
    return true;
  }
  bool key(json::string_t& k) {
    if (depth_ == 1) {
      key_ = k == "ph"     ? Key::Ph
             : k == "name" ? Key::Name
             : k == "ts"   ? Key::Ts
             : k == "pid"  ? Key::Pid
             : k == "dur"  ? Key::Dur
             : k == "args" ? Key::Args
             : k == "s"    ? Key::S
                           : Key::Other;
      if (key_ == Key::Other) e_.foreign = true;
    } else if (depth_ == 2 && in_args_) {
      arg_ = k == "name" ? Arg::Name : k == "start_time_since_epoch_in_micros" ? Arg::Start : Arg::Other;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  enum class Key : uint8_t { Other, Ph, Name, Ts, Pid, Dur, Args, S };
  enum class Arg : uint8_t { Other, Name, Start };
  bool value() const { return depth_ > 0; }
  bool number(double v, int64_t whole) {
    if (depth_ == 1 && key_ == Key::Ts) e_.ts = v;
    if (depth_ == 1 && key_ == Key::Dur) e_.dur = v;
    if (depth_ == 1 && key_ == Key::Pid) e_.pid = v;
    if (depth_ == 2 && in_args_ && arg_ == Arg::Start) e_.start_time = whole;
    return value();
  }

  Event& e_;
  int depth_ = 0;
  bool seen_top_ = false;
  bool in_args_ = false;
  Key key_ = Key::Other;
  Arg arg_ = Arg::Other;
};

// Parses the object `text` into `e`; false when it is not one JSON object.
bool parse_event(std::string_view text, HorovodTimelineReader::TraceEvent& e) {
  e.ph.clear();
  e.name.clear();
  e.tensor.clear();
  e.ts.reset();
  e.dur.reset();
  e.pid.reset();
  e.start_time.reset();
  e.foreign = false;
  EventSax sax(e);
  return json::sax_parse(text.begin(), text.end(), &sax);
}

}  // namespace

HorovodPhase horovod_phase(std::string_view a) {
  if (a.starts_with("NEGOTIATE_")) return HorovodPhase::Negotiate;
  if (a == "WAIT_FOR_DATA" || a == "WAIT_FOR_OTHER_TENSOR_DATA") return HorovodPhase::WaitForData;
  if (a == "QUEUE") return HorovodPhase::Queue;
  if (a == "MEMCPY_IN_FUSION_BUFFER" || a == "MEMCPY_OUT_FUSION_BUFFER") return HorovodPhase::FusionCopy;
  // A hierarchical allreduce stages through host memory between its NCCL
  // and MPI steps: part of the collective.
  if (a == "MEMCPY_IN_HOST_BUFFER" || a == "MEMCPY_OUT_HOST_BUFFER") return HorovodPhase::Collective;
  for (std::string_view lib : {"NCCL_", "MPI_", "GLOO_", "CCL_"}) {
    if (a.starts_with(lib) && a.size() > lib.size()) return HorovodPhase::Collective;
  }
  return HorovodPhase::Other;
}

bool HorovodTimelineReader::take(std::string_view payload, uint64_t line) {
  std::string_view text = trim(payload);
  if (text.empty()) return false;
  if (open_) {
    if (text == "[") {
      // Another timeline after one that was never closed.
      close(false);
      bracket_ = line;
      return false;
    }
    return take_line(text, false);
  }
  // Out of a timeline: `[` alone may open one, if trace events follow.
  if (text == "[") {
    bracket_ = line;
    return false;
  }
  std::optional<uint64_t> bracket = bracket_;
  bracket_.reset();
  bool same_line = text.starts_with("[{");
  if (!(text.front() == '{' || same_line)) return false;
  if (!opens(same_line ? text.substr(1) : text, same_line || bracket)) return false;
  begin(bracket.value_or(line));
  take_line(text, true);
  return true;
}

void HorovodTimelineReader::finish() {
  if (open_) close(false);
  bracket_.reset();
}

// Whether the first object of `text` is a Horovod trace event: the metadata
// that follows the `[` (only there), or a timed event.
bool HorovodTimelineReader::opens(std::string_view text, bool after_bracket) {
  if (text.find("\"ph\"") == std::string_view::npos) return false;
  size_t end = object_end(text, 0);
  if (end == std::string_view::npos) return false;
  TraceEvent& e = scratch_;
  // Only the keys Horovod writes: Chrome traces of other tools carry `tid`,
  // `cat` and more, and are not Horovod timelines.
  if (!parse_event(text.substr(0, end), e) || e.foreign) return false;
  if (e.ph == "M") return after_bracket && (e.name == "process_name" || e.name == "process_sort_index") && e.pid;
  if (e.ph != "B" && e.ph != "E" && e.ph != "X" && e.ph != "i") return false;
  return e.ts && (e.ph == "i" || e.pid);
}

bool HorovodTimelineReader::take_line(std::string_view text, bool opening) {
  bool any = false;
  size_t i = 0;
  // The array's `[` only opens it; inside, a `[` starts someone else's text.
  if (opening && text.starts_with("[")) i = 1;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == ',') {
      any = any || c == ',';
      ++i;
      continue;
    }
    if (c == ']') {
      close(true);
      return true;
    }
    if (c != '{') break;  // not part of the array: noise, or what follows it
    size_t end = object_end(text, i);
    if (end == std::string_view::npos) {
      // The write a killed job left half done.
      any = any || text.substr(i).starts_with("{\"");
      break;
    }
    if (parse_event(text.substr(i, end - i), scratch_) && !scratch_.ph.empty()) {
      event(scratch_);
      any = true;
    }
    i = end;
  }
  return any;
}

void HorovodTimelineReader::begin(uint64_t line) {
  tl_ = HorovodTimeline{};
  tl_.line = line;
  timed_ = false;
  pids_.clear();
  totals_.clear();
  unions_ = Unions{};
  open_ = true;
  out_.saw(SideKind::HorovodTimeline);
}

void HorovodTimelineReader::span(double from, double to) {
  if (!timed_) {
    tl_.first_us = from;
    tl_.last_us = to;
    timed_ = true;
    return;
  }
  tl_.first_us = std::min(tl_.first_us, from);
  tl_.last_us = std::max(tl_.last_us, to);
}

size_t HorovodTimelineReader::total_index(int64_t pid, Pid& p, std::string_view activity) {
  for (const auto& [name, index] : p.totals) {
    if (name == activity) return index;
  }
  totals_.push_back(Total{pid, std::string(activity), horovod_phase(activity), 0, 0});
  p.totals.emplace_back(std::string(activity), totals_.size() - 1);
  return totals_.size() - 1;
}

void HorovodTimelineReader::busy(HorovodPhase phase, double from, double to) {
  if (phase == HorovodPhase::Other) return;
  unions_.phase[static_cast<size_t>(phase)].add(from, to);
  if (phase != HorovodPhase::WaitForData) unions_.comm_negotiate.add(from, to);
  if (phase != HorovodPhase::WaitForData && phase != HorovodPhase::Negotiate) unions_.comm.add(from, to);
}

void HorovodTimelineReader::event(const TraceEvent& e) {
  ++tl_.events;
  auto pid = static_cast<int64_t>(e.pid.value_or(-1));
  if (e.ph == "M") {
    if (!e.pid || e.name != "process_name") return;
    if (!e.tensor.empty()) pids_[pid].tensor = e.tensor;
    if (e.start_time) tl_.start_time_since_epoch_us = e.start_time;
    return;
  }
  // A hostile or corrupt number (1e400 reads as infinity) is no time.
  if (!e.ts || !std::isfinite(*e.ts)) return;
  double ts = *e.ts;
  double dur = e.dur && std::isfinite(*e.dur) && *e.dur > 0 ? *e.dur : 0;
  span(ts, ts + std::max(dur, 0.0));
  if (!e.pid) return;  // `i` cycle markers belong to no tensor
  Pid& p = pids_[pid];
  if (e.ph == "B") {
    p.stack.push_back(Begun{total_index(pid, p, e.name), ts});
    if (e.name.starts_with("NEGOTIATE_")) {
      p.last_ready.reset();
      p.ticks = 0;
    }
  } else if (e.ph == "E") {
    if (p.stack.empty()) return;
    Begun b = p.stack.back();
    p.stack.pop_back();
    Total& t = totals_[b.total];
    t.total_us += ts - b.ts;
    ++t.count;
    busy(t.phase, b.ts, ts);
    if (t.activity == "MEMCPY_IN_FUSION_BUFFER") unions_.fusion_in.add(b.ts, ts);
    if (t.phase == HorovodPhase::Negotiate && p.last_ready) {
      bool known = tl_.last_ready.count(*p.last_ready) > 0;
      if (known || tl_.last_ready.size() < kMaxRanks) {
        ++tl_.last_ready[*p.last_ready];
        // With one tick there was nobody else to wait. The tensors of one
        // cycle wait the same wall time: counted once.
        if (p.ticks >= 2 && p.last_tick > p.prev_tick) ready_wait_[*p.last_ready].add(p.prev_tick, p.last_tick);
      }
      p.last_ready.reset();
    }
  } else if (e.ph == "X") {
    // A negotiation's ticks are zero-length X events named by the rank that
    // reported ready: kept as who came last, not as activities.
    auto rank = parse_u32(e.name);
    if (rank && dur == 0 && !p.stack.empty() && totals_[p.stack.back().total].activity.starts_with("NEGOTIATE_")) {
      p.last_ready = rank;
      p.prev_tick = p.ticks > 0 ? p.last_tick : ts;
      p.last_tick = ts;
      ++p.ticks;
      return;
    }
    Total& t = totals_[total_index(pid, p, e.name)];
    t.total_us += dur;
    ++t.count;
    busy(t.phase, ts, ts + dur);
  }
}

void HorovodTimelineReader::close(bool terminated) {
  tl_.terminated = terminated;
  auto tensor_of = [this](int64_t pid) {
    auto it = pids_.find(pid);
    if (it != pids_.end() && !it->second.tensor.empty()) return it->second.tensor;
    return "pid " + std::to_string(pid);  // events whose metadata was cut off (a tail of the file)
  };
  auto length = [this](HorovodPhase ph) { return unions_.phase[static_cast<size_t>(ph)].length(); };
  HorovodBusy& under_way = tl_.busy;
  under_way.negotiate_us = length(HorovodPhase::Negotiate);
  under_way.data_wait_us = length(HorovodPhase::WaitForData);
  under_way.queue_us = length(HorovodPhase::Queue);
  under_way.fusion_copy_us = length(HorovodPhase::FusionCopy);
  under_way.collective_us = length(HorovodPhase::Collective);
  under_way.comm_us = unions_.comm.length();
  under_way.comm_negotiate_us = unions_.comm_negotiate.length();
  under_way.collectives = unions_.phase[static_cast<size_t>(HorovodPhase::Collective)].runs();
  under_way.fusion_copies_in = unions_.fusion_in.runs();
  for (const auto& [rank, waits] : ready_wait_) tl_.last_ready_wait_us[rank] = waits.length();
  tl_.activities.reserve(totals_.size());
  for (const Total& t : totals_) {
    if (t.count > 0) tl_.activities.push_back(HorovodActivity{tensor_of(t.pid), t.activity, t.total_us, t.count});
  }
  for (const auto& [pid, p] : pids_) {
    for (const Begun& b : p.stack) {
      const std::string& activity = totals_[b.total].activity;
      std::string tensor = tensor_of(pid);
      auto same = [&](const HorovodActivity& a) { return a.tensor == tensor && a.activity == activity; };
      auto it = std::find_if(tl_.unfinished.begin(), tl_.unfinished.end(), same);
      if (it == tl_.unfinished.end()) {
        tl_.unfinished.push_back(HorovodActivity{tensor, activity, 0, 0});
        it = tl_.unfinished.end() - 1;
      }
      it->total_us += tl_.last_us - b.ts;
      ++it->count;
    }
  }
  out_.timelines.push_back(std::move(tl_));
  tl_ = HorovodTimeline{};
  pids_.clear();
  totals_.clear();
  unions_ = Unions{};
  open_ = false;
}

}  // namespace nd
