#include "src/pipeline/hang_watch.h"

#include <fmt/format.h>

namespace nd {

HangWatch::HangWatch(Clock::duration after, std::function<void(std::string_view)> emit)
    : after_(after), emit_(std::move(emit)), last_line_at_(Clock::now()), thread_([this] { run(); }) {}

HangWatch::~HangWatch() { stop(); }

void HangWatch::on_input() {
  std::lock_guard lk(mutex_);
  last_line_at_ = Clock::now();
  reported_ = false;
}

void HangWatch::on_event(LineRef ref, const NcclHeader& h, const Event& ev) {
  std::lock_guard lk(mutex_);
  last_line_at_ = Clock::now();
  last_line_ = ref;
  reported_ = false;
  const auto* init = std::get_if<InitEvent>(&ev);
  if (!init) return;
  Key key{std::string(h.host), h.pid, std::string(init->comm_ptr)};
  if (init->phase == InitPhase::Start) {
    open_[key] = {init->rank, init->nranks, ref};
  } else {
    open_.erase(key);
  }
}

void HangWatch::run() {
  std::unique_lock lk(mutex_);
  while (!stop_) {
    auto deadline = last_line_at_ + after_;
    if (reported_ || open_.empty() || Clock::now() < deadline) {
      // Wake at the deadline, or soon after a line resets it.
      auto wake = reported_ || open_.empty() ? Clock::now() + std::min<Clock::duration>(after_, std::chrono::seconds(1))
                                             : deadline;
      cv_.wait_until(lk, wake);
      continue;
    }
    reported_ = true;
    StallRecord stall;
    stall.after = last_line_;
    stall.seconds = std::chrono::duration<double>(Clock::now() - last_line_at_).count();
    std::vector<std::string> who;
    for (const auto& [key, open] : open_) {
      stall.starts.push_back(open.start);
      if (who.size() < 8) {
        const std::string& host = std::get<0>(key);
        who.push_back(host.empty() ? fmt::format("rank {} of {} (host unknown)", open.rank, open.nranks)
                                   : fmt::format("rank {} of {} ({} pid {})", open.rank, open.nranks, host,
                                                 std::get<1>(key)));
      }
    }
    if (open_.size() > who.size()) who.push_back(fmt::format("and {} more", open_.size() - who.size()));
    stalls_.push_back(std::move(stall));
    std::string text = fmt::format(
        "error: no input for {:.0f} s while {} printed Init START and no Init COMPLETE: they hang in init "
        "[ND1100 init-incomplete]\n",
        stalls_.back().seconds, fmt::join(who, ", "));
    lk.unlock();
    emit_(text);
    lk.lock();
  }
}

void HangWatch::stop() {
  {
    std::lock_guard lk(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HangWatch::finish(JobModel& model) {
  stop();
  for (auto& s : stalls_) model.stalls.push_back(std::move(s));
  stalls_.clear();
}

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double total_ms = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = pos;
    double value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') value = value * 10 + (text[pos++] - '0');
    if (pos == start) return std::nullopt;
    std::string_view unit = text.substr(pos);
    double scale = 0;
    size_t len = 0;
    if (unit.starts_with("ms")) scale = 1, len = 2;
    else if (unit.starts_with("s")) scale = 1e3, len = 1;
    else if (unit.starts_with("m")) scale = 60e3, len = 1;
    else if (unit.starts_with("h")) scale = 3600e3, len = 1;
    else if (unit.empty() && start == 0) scale = 1e3, len = 0;  // a bare number is seconds
    else return std::nullopt;
    total_ms += value * scale;
    pos += len;
  }
  if (total_ms <= 0 || total_ms > 1e12) return std::nullopt;
  return std::chrono::milliseconds(static_cast<int64_t>(total_ms));
}

}  // namespace nd
