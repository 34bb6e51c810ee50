#pragma once
// `check --tee --hang-after DURATION`: a watchdog over the live input. When
// no line arrives for DURATION while some ranks have printed Init START and
// no Init COMPLETE, those ranks are reported as hanging in init at once, and
// the stall becomes evidence for the final report (init-incomplete).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "parsers/line_classifier.h"
#include "src/model/job_model.h"

namespace nd {

class HangWatch {
 public:
  using Clock = std::chrono::steady_clock;
  // `emit` prints a live finding; it is called from the watchdog thread.
  HangWatch(Clock::duration after, std::function<void(std::string_view)> emit);
  ~HangWatch();
  HangWatch(const HangWatch&) = delete;
  HangWatch& operator=(const HangWatch&) = delete;

  // Bytes arrived: the input is alive.
  void on_input();
  // From the ModelBuilder observer, in line order.
  void on_event(LineRef ref, const NcclHeader& h, const Event& ev);
  // Stops the watchdog: call once the input has ended, so that the time
  // taken to finish the model is not mistaken for a silent job.
  void stop();
  // Stops it if need be; the stalls it saw go into `model` (from the thread
  // that owns the model).
  void finish(JobModel& model);

 private:
  using Key = std::tuple<std::string, uint64_t, std::string>;  // host, pid, comm pointer
  struct Open {
    uint32_t rank = 0;
    uint32_t nranks = 0;
    LineRef start;  // its Init START line
  };
  void run();

  Clock::duration after_;
  std::function<void(std::string_view)> emit_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  Clock::time_point last_line_at_;
  LineRef last_line_;
  std::map<Key, Open> open_;  // ranks in init
  std::vector<StallRecord> stalls_;
  bool reported_ = false;  // one live report per stall
  std::thread thread_;
};

// "90s", "5m", "1h30m", "250ms"; nullopt when not a duration.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

}  // namespace nd
