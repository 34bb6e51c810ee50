#include "src/probe/captured_verbs.h"

#include <cerrno>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace nd {
namespace {

using nlohmann::json;

// A number of the record as T: an integer in T's range, else the record is
// rejected (a hostile or damaged verbs.json must not wrap or overflow).
template <typename T>
T integer(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number_integer()) throw std::domain_error(std::string(key) + " is not an integer");
  if (v.is_number_unsigned()) {
    auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) throw std::out_of_range(std::string(key) + " out of range");
    return static_cast<T>(u);
  }
  auto i = v.get<int64_t>();
  if (i < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
      (i > 0 && static_cast<uint64_t>(i) > static_cast<uint64_t>(std::numeric_limits<T>::max()))) {
    throw std::out_of_range(std::string(key) + " out of range");
  }
  return static_cast<T>(i);
}

json port_json(const VerbsPort& p) {
  return {{"port", p.port},           {"state", p.state},
          {"phys_state", p.phys_state}, {"max_mtu", p.max_mtu},
          {"active_mtu", p.active_mtu}, {"active_width", p.active_width},
          {"active_speed", p.active_speed}, {"link_layer", p.link_layer},
          {"lid", p.lid},             {"sm_lid", p.sm_lid},
          {"gid_tbl_len", p.gid_tbl_len}, {"cap_flags", p.cap_flags}};
}

VerbsPort port_from(const json& j) {
  VerbsPort p;
  p.port = integer<uint32_t>(j, "port");
  p.state = integer<int>(j, "state");
  p.phys_state = integer<int>(j, "phys_state");
  p.max_mtu = integer<int>(j, "max_mtu");
  p.active_mtu = integer<int>(j, "active_mtu");
  p.active_width = integer<int>(j, "active_width");
  p.active_speed = integer<int>(j, "active_speed");
  p.link_layer = integer<int>(j, "link_layer");
  p.lid = integer<uint32_t>(j, "lid");
  p.sm_lid = integer<uint32_t>(j, "sm_lid");
  p.gid_tbl_len = integer<int>(j, "gid_tbl_len");
  p.cap_flags = integer<uint32_t>(j, "cap_flags");
  return p;
}

json device_json(const VerbsDevice& d) {
  json ports = json::array();
  for (const auto& p : d.ports) ports.push_back(port_json(p));
  return {{"name", d.name},           {"fw_ver", d.fw_ver},
          {"node_guid", d.node_guid}, {"vendor_id", d.vendor_id},
          {"vendor_part_id", d.vendor_part_id}, {"phys_port_cnt", d.phys_port_cnt},
          {"dmabuf", d.dmabuf},       {"ports", ports}};
}

VerbsDevice device_from(const json& j) {
  VerbsDevice d;
  d.name = j.at("name").get<std::string>();
  d.fw_ver = j.at("fw_ver").get<std::string>();
  d.node_guid = integer<uint64_t>(j, "node_guid");
  d.vendor_id = integer<uint32_t>(j, "vendor_id");
  d.vendor_part_id = integer<uint32_t>(j, "vendor_part_id");
  d.phys_port_cnt = integer<uint32_t>(j, "phys_port_cnt");
  d.dmabuf = integer<int>(j, "dmabuf");
  for (const auto& p : j.at("ports")) d.ports.push_back(port_from(p));
  return d;
}

}  // namespace

int RecordingVerbsProbe::list_devices(std::vector<std::string>& names) {
  names.clear();
  int err = inner_ != nullptr ? inner_->list_devices(names) : ENOSYS;
  answers_.list_error = err;
  answers_.listed = names;
  return err;
}

int RecordingVerbsProbe::query_device(const std::string& name, VerbsDevice& out) {
  int err = inner_ != nullptr ? inner_->query_device(name, out) : ENODEV;
  if (err != 0) {
    answers_.open_errors[name] = err;
  } else {
    answers_.devices.push_back(out);
  }
  return err;
}

std::string verbs_capture_json(const std::string& status, const std::string& message,
                               const RecordingVerbsProbe* recorded) {
  json j = {{"schema", "nccl-doctor.verbs-capture/1"}, {"status", status}, {"message", message}};
  if (recorded != nullptr) {
    const ScriptedVerbsProbe& a = recorded->answers();
    json devices = json::array();
    for (const auto& d : a.devices) devices.push_back(device_json(d));
    json open_errors = json::object();
    for (const auto& [name, err] : a.open_errors) open_errors[name] = err;
    j["list_error"] = a.list_error;
    j["listed"] = a.listed.value_or(std::vector<std::string>{});
    j["devices"] = devices;
    j["open_errors"] = open_errors;
  }
  return j.dump(2) + "\n";
}

std::optional<CapturedVerbs> load_captured_verbs(const SysfsReader& capture, std::string& error) {
  if (!capture.exists(kVerbsCaptureFile)) return std::nullopt;
  ReadResult r = capture.read(kVerbsCaptureFile);
  if (!r.ok()) {
    error = errno_name(r.error);
    return std::nullopt;
  }
  json j = json::parse(r.value, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "unexpected contents: not a JSON object";
    return std::nullopt;
  }
  try {
    CapturedVerbs c;
    c.status = j.at("status").get<std::string>();
    c.message = j.at("message").get<std::string>();
    if (j.contains("listed")) {
      auto probe = std::make_unique<ScriptedVerbsProbe>();
      probe->list_error = integer<int>(j, "list_error");
      probe->listed = j.at("listed").get<std::vector<std::string>>();
      for (const auto& d : j.at("devices")) probe->devices.push_back(device_from(d));
      const json& open_errors = j.at("open_errors");
      for (const auto& [name, err] : open_errors.items()) probe->open_errors[name] = integer<int>(open_errors, name.c_str());
      c.probe = std::move(probe);
    }
    return c;
  } catch (const std::exception& e) {
    error = std::string("unexpected contents: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace nd
