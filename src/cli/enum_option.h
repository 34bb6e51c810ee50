#pragma once
// An option that takes one of a few words and stores the matching enum
// value: CLI11 checks the word (IsMember: only the words, not the enum's
// numbers, and the usual "xml not in {text,json}" message) and maps it
// (CheckedTransformer).

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace nd {

template <typename E>
using EnumWords = std::vector<std::pair<std::string, E>>;

template <typename E>
CLI::Option* add_enum_option(CLI::App* cmd, const std::string& name, E& value, const EnumWords<E>& words,
                             const std::string& help) {
  std::string shown;
  for (const auto& [word, v] : words) {
    if (v == value) shown = word;
  }
  // A transform runs before those added earlier: the word is checked, then mapped.
  return cmd->add_option(name, value, help)
      ->transform(CLI::CheckedTransformer(words).description(""))
      ->transform(CLI::IsMember(words))
      ->type_name("TEXT")
      ->default_str(shown);
}

}  // namespace nd
