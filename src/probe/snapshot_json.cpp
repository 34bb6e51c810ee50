#include "src/probe/snapshot_json.h"

#include "nd_config.h"

namespace nlohmann {

// nlohmann 3.11 has no std::optional support: null ⇔ nullopt.
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v) {
      j = *v;
    } else {
      j = nullptr;
    }
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null()) {
      v.reset();
    } else {
      v = j.get<T>();
    }
  }
};

}  // namespace nlohmann

namespace nd {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReadIssue, path, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GidInfo, index, gid, type, ndev)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PortInfo, port, state, phys_state, rate_gbps, width, speed,
                                                rate_text, rate_error, link_layer, lid, sm_lid, active_mtu,
                                                gids, pkeys, counters)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PciLink, current_speed, max_speed, current_width, max_width)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HcaInfo, name, pci_bdf, pci_path, numa_node, netdevs, node_type,
                                                fw_ver, node_guid, sys_image_guid, hca_type, board_id, link,
                                                has_uverbs, verbs_state, ports)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuInfo, pci_bdf, pci_path, device_id, numa_node, link,
                                                nearest_hca, nearest_path)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BridgeAcs, bdf, state, detail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuNicPath, gpu, hca, type, bridges)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IommuInfo, units, group_types)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(VerbsInfo, status, message, devices)

namespace {

nlohmann::json gdr_to_json(const GdrInfo& g) {
  return {{"ready", g.ready()},
          {"peermem_markers", g.peermem_markers},
          {"dmabuf", g.dmabuf},
          {"peer_memory_api", g.peer_memory_api}};
}

GdrInfo gdr_from_json(const nlohmann::json& j) {
  GdrInfo g;
  g.peermem_markers = j.value("peermem_markers", std::vector<std::string>{});
  if (j.contains("dmabuf")) j.at("dmabuf").get_to(g.dmabuf);
  if (j.contains("peer_memory_api")) j.at("peer_memory_api").get_to(g.peer_memory_api);
  return g;
}

}  // namespace

nlohmann::json host_to_json(const HostInfo& h) {
  nlohmann::json j;
  j["host"] = h.host;
  j["rank"] = h.rank;
  j["rank_source"] = h.rank_source;
  if (!h.memlock_soft) {
    j["memlock_soft"] = nullptr;
  } else if (*h.memlock_soft == kMemlockUnlimited) {
    j["memlock_soft"] = "unlimited";
  } else {
    j["memlock_soft"] = *h.memlock_soft;
  }
  j["cap_ipc_lock"] = h.cap_ipc_lock;
  j["kernel"] = h.kernel;
  j["nvidia_driver"] = h.nvidia_driver;
  j["nccl_version"] = h.nccl_version;
  return j;
}

HostInfo host_from_json(const nlohmann::json& j) {
  HostInfo h;
  h.host = j.value("host", "");
  if (j.contains("rank")) j.at("rank").get_to(h.rank);
  h.rank_source = j.value("rank_source", "");
  if (j.contains("memlock_soft")) {
    const auto& m = j.at("memlock_soft");
    if (m.is_string()) {
      if (m.get<std::string>() != "unlimited") throw std::invalid_argument("memlock_soft: expected a number or \"unlimited\"");
      h.memlock_soft = kMemlockUnlimited;
    } else if (!m.is_null()) {
      h.memlock_soft = m.get<uint64_t>();
    }
  }
  if (j.contains("cap_ipc_lock")) j.at("cap_ipc_lock").get_to(h.cap_ipc_lock);
  h.kernel = j.value("kernel", "");
  h.nvidia_driver = j.value("nvidia_driver", "");
  h.nccl_version = j.value("nccl_version", "");
  return h;
}

nlohmann::json snapshot_to_json(const NodeSnapshot& n) {
  nlohmann::json j;
  j["schema"] = kProbeSchema;
  j["tool_version"] = ND_VERSION;
  j["host"] = host_to_json(n.host);
  j["verbs"] = n.verbs;
  j["uverbs_abi"] = n.uverbs_abi;
  j["hcas"] = n.hcas;
  j["gpus"] = n.gpus;
  j["paths"] = n.paths;
  j["gdr"] = gdr_to_json(n.gdr);
  j["iommu"] = n.iommu;
  j["issues"] = n.issues;
  return j;
}

std::string snapshot_record_line(const NodeSnapshot& node) {
  nlohmann::json j = snapshot_to_json(node);
  nlohmann::ordered_json o;
  o["schema"] = kProbeSchema;
  for (const auto& [key, value] : j.items()) {
    if (key != "schema") o[key] = nlohmann::ordered_json::parse(value.dump());
  }
  return o.dump();
}

std::optional<NodeSnapshot> snapshot_from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  auto schema = j.find("schema");
  if (schema == j.end() || !schema->is_string()) {
    error = "no \"schema\" field: not an nccl-doctor probe record";
    return std::nullopt;
  }
  if (schema->get<std::string>() != kProbeSchema) {
    error = "schema '" + schema->get<std::string>() + "' is not " + kProbeSchema;
    return std::nullopt;
  }
  NodeSnapshot n;
  // Decode section by section so the error names the field, not just
  // nlohmann's exception number.
  auto section = [&](const char* key, bool required, auto&& decode) {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) throw std::invalid_argument(std::string("field \"") + key + "\" is missing");
      return;
    }
    try {
      decode(*it);
    } catch (const std::exception& e) {
      std::string what = e.what();
      if (what.starts_with("[json.exception.")) what = what.substr(what.find("] ") + 2);
      throw std::invalid_argument(std::string("field \"") + key + "\": " + what);
    }
  };
  try {
    section("host", true, [&](const nlohmann::json& v) { n.host = host_from_json(v); });
    section("verbs", true, [&](const nlohmann::json& v) { v.get_to(n.verbs); });
    section("uverbs_abi", false, [&](const nlohmann::json& v) { v.get_to(n.uverbs_abi); });
    section("hcas", true, [&](const nlohmann::json& v) { v.get_to(n.hcas); });
    section("gpus", false, [&](const nlohmann::json& v) { v.get_to(n.gpus); });
    section("paths", false, [&](const nlohmann::json& v) { v.get_to(n.paths); });
    section("gdr", false, [&](const nlohmann::json& v) { n.gdr = gdr_from_json(v); });
    section("iommu", false, [&](const nlohmann::json& v) { v.get_to(n.iommu); });
    section("issues", false, [&](const nlohmann::json& v) { v.get_to(n.issues); });
    return n;
  } catch (const std::exception& e) {
    error = std::string("record does not fit ") + kProbeSchema + ": " + e.what();
    return std::nullopt;
  }
}

}  // namespace nd
