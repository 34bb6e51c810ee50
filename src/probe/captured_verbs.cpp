#include "src/probe/captured_verbs.h"

#include <cerrno>

#include <nlohmann/json.hpp>

namespace nd {
namespace {

using nlohmann::json;

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
  p.port = j.at("port").get<uint32_t>();
  p.state = j.at("state").get<int>();
  p.phys_state = j.at("phys_state").get<int>();
  p.max_mtu = j.at("max_mtu").get<int>();
  p.active_mtu = j.at("active_mtu").get<int>();
  p.active_width = j.at("active_width").get<int>();
  p.active_speed = j.at("active_speed").get<int>();
  p.link_layer = j.at("link_layer").get<int>();
  p.lid = j.at("lid").get<uint32_t>();
  p.sm_lid = j.at("sm_lid").get<uint32_t>();
  p.gid_tbl_len = j.at("gid_tbl_len").get<int>();
  p.cap_flags = j.at("cap_flags").get<uint32_t>();
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
  d.node_guid = j.at("node_guid").get<uint64_t>();
  d.vendor_id = j.at("vendor_id").get<uint32_t>();
  d.vendor_part_id = j.at("vendor_part_id").get<uint32_t>();
  d.phys_port_cnt = j.at("phys_port_cnt").get<uint32_t>();
  d.dmabuf = j.at("dmabuf").get<int>();
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
      probe->list_error = j.at("list_error").get<int>();
      probe->listed = j.at("listed").get<std::vector<std::string>>();
      for (const auto& d : j.at("devices")) probe->devices.push_back(device_from(d));
      for (const auto& [name, err] : j.at("open_errors").items()) probe->open_errors[name] = err.get<int>();
      c.probe = std::move(probe);
    }
    return c;
  } catch (const std::exception& e) {
    error = std::string("unexpected contents: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace nd
