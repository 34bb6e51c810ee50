#pragma once
// Random edits of a line, for the tests that hold a hand matcher to the
// regular expression it replaces.

#include <cstddef>
#include <random>
#include <string>

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

}  // namespace nd::test
