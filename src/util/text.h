#pragma once
// Makes text from a log safe to print on a terminal: control bytes and
// invalid UTF-8 become visible escapes, so a hostile log cannot drive the tty.

#include <string>
#include <string_view>

namespace nd {

std::string printable(std::string_view s);

// Replaces invalid UTF-8 sequences with U+FFFD; keeps everything else.
std::string valid_utf8(std::string_view s);

}  // namespace nd
