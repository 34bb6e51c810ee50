#pragma once
// Symbolic names of the errno values that RDMA, sysfs and socket failures
// report ("EACCES" rather than 13), and back.

#include <string>
#include <string_view>

namespace nd {

// "EINVAL", or "errno 9999" for a value without a name here.
std::string errno_name(int err);
// The value of a name errno_name gives (surrounding blanks ignored); 0 when unknown.
int errno_from_name(std::string_view name);

}  // namespace nd
