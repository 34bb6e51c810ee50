#pragma once
// A regular expression that can only match text holding a fixed word: it is
// compiled on the first text that holds the word, and text without it is
// refused by a substring search. A short log that has none of a family's
// messages then never pays for compiling its patterns, which costs more
// than reading the log.

#include <memory>
#include <mutex>
#include <string_view>

#include <re2/re2.h>

namespace nd {

class GuardedPattern {
 public:
  // `word` must occur in every match of `regex`; the tests of each family
  // hold its matches to that.
  GuardedPattern(std::string_view word, const char* regex) : word_(word), regex_(regex) {}

  template <typename... Captures>
  bool partial_match(re2::StringPiece text, Captures*... captures) const {
    if (std::string_view(text.data(), text.size()).find(word_) == std::string_view::npos) return false;
    return re2::RE2::PartialMatch(text, compiled(), captures...);
  }

  bool is_compiled() const { return re_ != nullptr; }

  const re2::RE2& compiled() const {
    std::call_once(once_, [this] { re_ = std::make_unique<re2::RE2>(regex_); });
    return *re_;
  }

 private:
  std::string_view word_;
  const char* regex_;
  mutable std::once_flag once_;
  mutable std::unique_ptr<re2::RE2> re_;
};

}  // namespace nd
