#pragma once
// The versioned JSON form of a NodeSnapshot: one record per node, written by
// `probe --json`, read back by `preflight --aggregate`.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "src/probe/node_snapshot.h"

namespace nd {

// Bump the number after the slash on any change a reader of /1 would
// misread; adding fields is not such a change.
inline constexpr const char* kProbeSchema = "nccl-doctor.probe/1";

nlohmann::json snapshot_to_json(const NodeSnapshot& node);

// One compact line with "schema" first, as `probe --json` prints it: the
// aggregate reader recognises the start of a record by that prefix even when
// a launcher has cut the line into pieces.
std::string snapshot_record_line(const NodeSnapshot& node);

// Never throws. Returns nullopt with `error` set for records that are not
// ours ("schema 'foo/2' is not nccl-doctor.probe/1") or do not fit the schema.
std::optional<NodeSnapshot> snapshot_from_json(const nlohmann::json& j, std::string& error);

nlohmann::json host_to_json(const HostInfo& host);
// Reads what it recognises; unknown keys are ignored. Throws nlohmann errors
// on wrong types (callers catch).
HostInfo host_from_json(const nlohmann::json& j);

}  // namespace nd
