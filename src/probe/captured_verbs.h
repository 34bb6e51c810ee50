#pragma once
// The verbs side of `probe --capture`: what this node's libibverbs answered,
// kept in `<capture>/verbs.json`, so `--sysfs-root` elsewhere replays that
// node's answers instead of asking the machine it runs on.

#include <memory>
#include <optional>
#include <string>

#include "src/probe/scripted_verbs_probe.h"
#include "src/probe/sysfs_reader.h"
#include "src/probe/verbs_probe.h"

namespace nd {

inline constexpr const char* kVerbsCaptureFile = "verbs.json";

// Forwards to `inner` (which may be null: verbs did not load) and keeps
// every answer for verbs_capture_json().
class RecordingVerbsProbe final : public VerbsProbe {
 public:
  explicit RecordingVerbsProbe(VerbsProbe* inner) : inner_(inner) {}
  int list_devices(std::vector<std::string>& names) override;
  int query_device(const std::string& name, VerbsDevice& out) override;

  const ScriptedVerbsProbe& answers() const { return answers_; }

 private:
  VerbsProbe* inner_;
  ScriptedVerbsProbe answers_;
};

// How verbs was reached on the captured node ("ok", "not-installed", …),
// with the answers when it loaded.
struct CapturedVerbs {
  std::string status;
  std::string message;
  std::unique_ptr<ScriptedVerbsProbe> probe;  // null when verbs did not load there
};

std::string verbs_capture_json(const std::string& status, const std::string& message,
                               const RecordingVerbsProbe* answers);

// nullopt when the capture has no verbs.json; a file that does not parse
// is reported through `error`.
std::optional<CapturedVerbs> load_captured_verbs(const SysfsReader& capture, std::string& error);

}  // namespace nd
