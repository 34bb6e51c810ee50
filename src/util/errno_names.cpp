#include "src/util/errno_names.h"

#include <cerrno>

#include "src/util/text.h"

namespace nd {
namespace {

struct ErrnoName {
  int value;
  std::string_view name;
};
constexpr ErrnoName kErrnoNames[] = {
    {EPERM, "EPERM"},           {ENOENT, "ENOENT"},     {EIO, "EIO"},
    {EACCES, "EACCES"},         {EFAULT, "EFAULT"},     {EBUSY, "EBUSY"},
    {ENODEV, "ENODEV"},         {EINVAL, "EINVAL"},     {ENOSYS, "ENOSYS"},
    {ENODATA, "ENODATA"},       {EOPNOTSUPP, "EOPNOTSUPP"}, {EISDIR, "EISDIR"},
    {ENOMEM, "ENOMEM"},         {ETIMEDOUT, "ETIMEDOUT"}, {ECONNREFUSED, "ECONNREFUSED"},
    {ECONNRESET, "ECONNRESET"}, {EHOSTUNREACH, "EHOSTUNREACH"}, {ENETUNREACH, "ENETUNREACH"},
};

}  // namespace

std::string errno_name(int err) {
  for (const auto& e : kErrnoNames) {
    if (e.value == err) return std::string(e.name);
  }
  return "errno " + std::to_string(err);
}

int errno_from_name(std::string_view name) {
  name = trim(name);
  for (const auto& e : kErrnoNames) {
    if (name == e.name) return e.value;
  }
  return 0;
}

}  // namespace nd
