#include "parsers/net_notes.h"

#include <re2/re2.h>

#include "parsers/guarded_pattern.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

using re2::StringPiece;

std::string_view sv(StringPiece p) { return {p.data(), p.size()}; }

// A message's words, without the blanks around them or the full stop after.
std::string_view words_of(std::string_view s) {
  s = trim(s);
  while (!s.empty() && s.back() == '.') s = trim(s.substr(0, s.size() - 1));
  return s;
}

bool take_prefix(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

NetNoteEvent note(NetNote kind, std::string_view name = {}) {
  NetNoteEvent e;
  e.note = kind;
  e.name = name;
  return e;
}

// A dlerror() text: the plugin library itself is absent (PluginNotFound), or
// it is there and something else failed, such as a library it needs
// (`libfabric.so.1: cannot open shared object file`) or a symbol.
NetNoteEvent load_error(std::string_view dlerror) {
  dlerror = words_of(dlerror);
  constexpr std::string_view kMissing = ": cannot open shared object file: No such file or directory";
  if (size_t pos = dlerror.find(kMissing); pos != std::string_view::npos) {
    std::string_view lib = dlerror.substr(0, pos);
    if (size_t cut = lib.find_last_of(" (/"); cut != std::string_view::npos) lib = lib.substr(cut + 1);
    if (lib.starts_with("libnccl-net")) return note(NetNote::PluginNotFound, lib);
  }
  return note(NetNote::PluginLoadFailed, dlerror);
}

// After `NET/Plugin : ` (2.4-2.20) or `NET/Plugin: ` (2.13+).
std::optional<NetNoteEvent> plugin_line(std::string_view rest) {
  if (rest.starts_with("No plugin found")) {
    // `No plugin found (libnccl-net.so).` (2.4), `..., using internal implementation`
    // (2.5-2.20, 2.19-2.20 after `dlerror=%s `), `No plugin found (%s)` (2.21).
    size_t open = rest.find('(');
    size_t close = open == std::string_view::npos ? open : rest.find(')', open);
    return note(NetNote::PluginNotFound,
                close == std::string_view::npos ? std::string_view{} : rest.substr(open + 1, close - open - 1));
  }
  if (rest.starts_with("dlerror=")) {
    // 2.19-2.20: `dlerror=%s No plugin found (%s), using internal implementation`.
    if (size_t pos = rest.find(" No plugin found"); pos != std::string_view::npos) return plugin_line(rest.substr(pos + 1));
    return std::nullopt;
  }
  if (take_prefix(rest, "Could not find:")) {
    // 2.22-2.26 `Could not find: a.so b.so. Using internal network plugin.`, 2.27 `... . `, 2.28+ no tail.
    if (size_t dot = rest.find(". "); dot != std::string_view::npos) rest = rest.substr(0, dot);
    return note(NetNote::PluginNotFound, words_of(rest));
  }
  if (rest.starts_with("Using internal network plugin")) return note(NetNote::PluginNotFound);
  if (take_prefix(rest, "Loaded net plugin ")) {
    // `Loaded net plugin NCCL RDMA Plugin v8 (v8)`: the name may hold spaces and digits.
    rest = words_of(rest);
    NetNoteEvent e = note(NetNote::PluginLoaded, rest);
    if (size_t v = rest.rfind(" (v"); v != std::string_view::npos && rest.ends_with(')')) {
      e.name = rest.substr(0, v);
      if (auto n = parse_u32(rest.substr(v + 3, rest.size() - v - 4)); n && *n < 1000) e.version = static_cast<int>(*n);
    }
    return e;
  }
  if (rest.starts_with("Failed to find ncclNetPlugin symbol")) return note(NetNote::PluginLoadFailed);
  // `Plugin load returned %d : %s.` (2.4-2.20, errno other than ENOENT), `Plugin load (%s)
  // returned %d : %s` (2.18-2.18.x), `Plugin load returned %d : %s when loading %s` and the
  // summaries `[Most recent p|P]lugin load returned %d : %s[. All attempts| : when loading]...` (2.21).
  if (size_t pos = rest.find("lugin load "); pos != std::string_view::npos && pos <= 13) {
    size_t colon = rest.find(" : ", pos);
    if (colon == std::string_view::npos) return note(NetNote::PluginLoadFailed);
    std::string_view text = rest.substr(colon + 3);
    for (std::string_view tail : {" : when loading ", " when loading ", ". All attempts "}) {
      if (size_t cut = text.find(tail); cut != std::string_view::npos) text = text.substr(0, cut);
    }
    return load_error(text);
  }
  // 2.22+: any dlerror() other than ENOENT, printed as it is.
  if (rest.find("shared object") != std::string_view::npos || rest.find("undefined symbol") != std::string_view::npos ||
      rest.find("cannot open") != std::string_view::npos) {
    return load_error(rest);
  }
  return std::nullopt;  // `Plugin name set by env`, `Failed to find ncclNetPlugin_vN symbol.`, collnet, closing
}

// `Got completion` WARNs of every generation (2.4-2.30) and `Call to ibv_X
// failed` (`with error %s`, `... errno %d` 2.19+, `with %d %s, on dev ...` 2.24+).
std::optional<NetNoteEvent> ib_warn(std::string_view message) {
  StringPiece msg(message.data(), message.size());
  static const GuardedPattern kCompletion("Got completion",
      R"(^NET/IB(?:/GIN)? ?: Got completion (?:from peer \S+ )?with (?:error |status=)(?:\w+\()?(\d+))");
  StringPiece status;
  if (kCompletion.partial_match(msg, &status)) {
    NetNoteEvent e = note(NetNote::IbTraffic);
    if (auto s = parse_u32(sv(status)); s && *s < 1000) e.status = static_cast<int>(*s);
    return e;
  }
  if (message.starts_with("NET/IB") && message.find("async") != std::string_view::npos) return note(NetNote::IbTraffic);
  static const GuardedPattern kVerbs("Call to ibv_", R"(Call to (ibv_\w+) failed(?: with (?:(\d+) )?)?)");
  static const GuardedPattern kErrno(" errno ", R"( errno (\d+))");
  StringPiece call, code, err;
  if (!kVerbs.partial_match(msg, &call, &code)) return std::nullopt;
  // Device discovery failing says IB did not start, not that it carried traffic.
  for (std::string_view discovery : {"ibv_get_device_list", "ibv_free_device_list", "ibv_open_device",
                                     "ibv_close_device", "ibv_query_device", "ibv_query_port", "ibv_fork_init"}) {
    if (sv(call) == discovery) return std::nullopt;
  }
  NetNoteEvent e = note(NetNote::IbTraffic);
  e.call = sv(call);
  if (kErrno.partial_match(msg, &err)) code = err;
  if (auto n = parse_u32(sv(code)); n && *n < 100000) {
    e.status = static_cast<int>(*n);
  } else if (message.find("timed out") != std::string_view::npos) {
    e.status = 110;  // <= 2.18 print only strerror()
  }
  return e;
}

}  // namespace

std::optional<NetNoteEvent> parse_net_note(std::string_view msg, bool warn) {
  if (msg.size() < 8) return std::nullopt;
  switch (msg.front()) {
    case 'N': {
      if (!msg.starts_with("NET/")) return std::nullopt;
      std::string_view rest = msg.substr(4);
      if (take_prefix(rest, "Plugin")) {
        take_prefix(rest, " ");
        if (!take_prefix(rest, ":")) return std::nullopt;
        take_prefix(rest, " ");
        if (warn) return note(NetNote::PluginWarn, words_of(msg));
        return plugin_line(rest);
      }
      if (rest.starts_with("IB : No device found")) return note(NetNote::IbNoDevice);
      if (rest.starts_with("IB : No IP interface found")) return note(NetNote::IbNoInterface);
      if (take_prefix(rest, "OFI Selected ")) {
        // aws-ofi-nccl `Selected Provider is efa (found 4 nics)` (<= 1.13),
        // `Selected provider is efa, fabric is efa-direct (found 32 nics)` (1.14+).
        if (!take_prefix(rest, "Provider is ") && !take_prefix(rest, "provider is ")) return std::nullopt;
        size_t end = rest.find_first_of(", ");
        return note(NetNote::OfiProvider, rest.substr(0, end));
      }
      if (warn && rest.starts_with("IB")) return ib_warn(msg);
      // Before 2.28 a plugin that fails to initialise says so only in its own WARN.
      if (warn && rest.starts_with("OFI ")) return note(NetNote::PluginWarn, words_of(msg));
      return std::nullopt;
    }
    case 'F':
      if (msg.starts_with("Failed to open libibverbs")) return note(NetNote::VerbsMissing, "libibverbs.so[.1]");
      if (take_prefix(msg, "Failed to initialize NET plugin ")) return note(NetNote::PluginInitFailed, words_of(msg));
      return std::nullopt;
    case 'C':
      // 2.30.3+ tries NCCL_IBVERBS_LIB, libibverbs.so, libibverbs.so.1 in turn: only
      // the last failing means no verbs (`libibverbs.so` alone is the dev symlink).
      if (msg.starts_with("Count not open libibverbs.so.1") || msg.starts_with("Could not open libibverbs.so.1")) {
        return note(NetNote::VerbsMissing, "libibverbs.so.1");
      }
      if (warn) return ib_warn(msg);
      return std::nullopt;
    case 'S':
      // 2.27 `Successfully loaded external plugin %s`, 2.28+ `... external network plugin %s`
      // (tuner, profiler and env plugins name themselves).
      if (take_prefix(msg, "Successfully loaded external ")) {
        if (take_prefix(msg, "plugin ") || take_prefix(msg, "network plugin ")) {
          return note(NetNote::PluginLoaded, words_of(msg));
        }
      }
      return std::nullopt;
    case 'I':
      if (take_prefix(msg, "Initialized NET plugin ")) return note(NetNote::PluginInitialized, words_of(msg));
      return std::nullopt;
    case 'A':
      if (take_prefix(msg, "Assigned NET plugin ")) {
        msg = words_of(msg);
        if (msg.ends_with(" to comm")) msg.remove_suffix(8);
        return note(NetNote::PluginAssigned, msg);
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace nd
