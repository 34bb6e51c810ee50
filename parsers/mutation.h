#pragma once
// Random edits of a line, and the bundled lines to edit, for the tests that
// hold a hand matcher to the regular expression or general reader it
// replaces.

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace nd::test {

// Up to three random edits (insert, erase, replace, cut) of `s`, with bytes from `alphabet`.
inline std::string mutated(std::string s, const std::string& alphabet, std::mt19937& rng) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  int edits = 1 + static_cast<int>(pick(3));
  for (int e = 0; e < edits; ++e) {
    size_t at = s.empty() ? 0 : pick(s.size() + 1);
    char c = alphabet[pick(alphabet.size())];
    switch (pick(4)) {
      case 0: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), c); break;
      case 1: if (at < s.size()) s.erase(at, 1); break;
      case 2: if (at < s.size()) s[at] = c; break;
      default: s = s.substr(0, at); break;
    }
  }
  return s;
}

// Every line of the bundled logs and labelled lines: launcher prefixes,
// time stamps, splices, anonymised hosts.
inline std::vector<std::string> bundled_lines() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const char* dir : {"logs", "lines", "views"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(ND_SOURCE_ROOT) / "testdata" / dir)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path());
      std::string line;
      while (std::getline(in, line)) {
        if (std::string_view(dir) == "lines") {
          if (line.empty() || line[0] == '#') continue;
          line = line.substr(line.find('\t') + 1);
        }
        out.push_back(line);
      }
    }
  }
  return out;
}

}  // namespace nd::test
