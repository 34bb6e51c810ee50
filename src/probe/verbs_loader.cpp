#include "src/probe/verbs_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include <fmt/format.h>

// ND_PLUGIN_DIR and ND_PLUGIN_DIR_FROM_BIN come from src/probe/meson.build
// (the install location, absolute and relative to the binary's folder).
namespace nd {
namespace {

namespace fs = std::filesystem;

std::string dl_error() {
  const char* e = dlerror();
  return e != nullptr ? e : "unknown dlopen error";
}

std::vector<std::string> plugin_candidates(const EnvLookup& env) {
  if (auto p = env("ND_VERBS_PLUGIN"); p && !p->empty()) return {*p};
  std::vector<std::string> out;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    out.push_back((dir / ND_PLUGIN_DIR_FROM_BIN / kVerbsPluginName).lexically_normal().string());
    // Running from the build tree.
    out.push_back((dir / "probe" / "ibverbs" / kVerbsPluginName).string());
    out.push_back((dir / "src" / "probe" / "ibverbs" / kVerbsPluginName).string());
  }
  out.push_back(fmt::format("{}/{}", ND_PLUGIN_DIR, kVerbsPluginName));
  return out;
}

}  // namespace

uint32_t verbs_mtu_bytes(int mtu) { return mtu >= 1 && mtu <= 5 ? 128u << mtu : 0u; }

std::string verbs_load_status_str(VerbsLoadStatus s) {
  switch (s) {
    case VerbsLoadStatus::Loaded: return "loaded";
    case VerbsLoadStatus::NotInstalled: return "not-installed";
    case VerbsLoadStatus::PluginMissing: return "backend-missing";
    case VerbsLoadStatus::PluginBroken: return "backend-broken";
  }
  return fmt::format("unknown ({})", static_cast<int>(s));
}

VerbsLoad load_verbs_plugin(const EnvLookup& env) {
  VerbsLoad out;
  std::string lib = "libibverbs.so.1";
  if (auto v = env("ND_IBVERBS_LIBRARY"); v && !v->empty()) lib = *v;
  // Load libibverbs on its own first: a failure here is the user's answer
  // (NCCL would fall back to sockets), not a packaging problem of ours.
  // The handle stays open for the life of the process, as NCCL's does.
  void* verbs = dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (verbs == nullptr) {
    out.status = VerbsLoadStatus::NotInstalled;
    out.message = fmt::format("cannot load {} (rdma-core not installed?): {}", lib, dl_error());
    return out;
  }
  std::string tried;
  for (const auto& path : plugin_candidates(env)) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      out.status = VerbsLoadStatus::PluginBroken;
      out.message = fmt::format("cannot load verbs backend {}: {}", path, dl_error());
      return out;
    }
    using Create = nd::VerbsProbe* (*)(uint32_t);
    auto create = reinterpret_cast<Create>(dlsym(h, "nd_verbs_plugin_create"));
    VerbsProbe* probe = create != nullptr ? create(kVerbsPluginAbi) : nullptr;
    if (probe == nullptr) {
      out.status = VerbsLoadStatus::PluginBroken;
      out.message = fmt::format("verbs backend {} is from another build (ABI {} expected)", path, kVerbsPluginAbi);
      return out;
    }
    out.status = VerbsLoadStatus::Loaded;
    out.message = fmt::format("{} via {}", lib, path);
    out.probe.reset(probe);
    return out;
  }
  out.status = VerbsLoadStatus::PluginMissing;
  out.message = fmt::format(
      "libibverbs loads but the verbs backend {} was not found (tried {}); install it beside the tool (build "
      "with libibverbs-dev present: 'meson setup' then shows 'verbs backend: YES'), or set ND_VERBS_PLUGIN to its path",
      kVerbsPluginName, tried);
  return out;
}

}  // namespace nd
