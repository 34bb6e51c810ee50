#pragma once
// The byte classes of RE2's patterns that the hand matchers mirror (ASCII
// only, as the patterns read bytes: Latin-1).

#include "src/util/text.h"

namespace nd {

inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// RE2's \s: [\t\n\f\r ].
inline bool is_re2_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
// `[A-Za-z0-9_.\-]`: host names, HCA and interface names.
inline bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_'; }

}  // namespace nd
