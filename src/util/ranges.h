#pragma once
// Compresses sorted integers into "0-7, 9, 12-15" for messages.

#include <cstdint>
#include <string>
#include <vector>

namespace nd {

// `width` pads each number with zeros (channels print as "00-15").
std::string format_ranges(std::vector<uint32_t> values, int width = 0);

// The same, cut to about `max_chars` for a terminal when longer:
// "0,7-8,15-16,... (256 in all)".
std::string format_ranges_brief(std::vector<uint32_t> values, int width, size_t max_chars);

}  // namespace nd
