#pragma once
// Text helpers. printable() makes text from a log safe to print on a
// terminal: control bytes and invalid UTF-8 become visible escapes, so a
// hostile log cannot drive the tty.

#include <cstdint>
#include <string>
#include <string_view>

namespace nd {

std::string printable(std::string_view s);

// Replaces invalid UTF-8 sequences with U+FFFD; keeps everything else.
std::string valid_utf8(std::string_view s);

// `s` without blanks at either end: spaces, tabs, CR, LF and NUL (sysfs
// values end in a newline, some in a NUL; files from Windows in CRLF).
std::string_view trim(std::string_view s);

// `3 hosts`, `1 host`: a count and an English noun that takes an `s`.
std::string plural(uint64_t n, std::string_view noun);

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace nd
