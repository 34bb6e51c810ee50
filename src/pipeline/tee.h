#pragma once
// The copy half of `check --tee -`: writes the input's bytes to standard
// output as read() returns them. A closed or failing stdout stops the copy,
// once and with one note, never the analysis.

#include <string_view>

namespace nd {

class Tee {
 public:
  explicit Tee(int fd) : fd_(fd) {}
  // Writes all of `bytes` unless the output has failed; false once it has.
  bool write(std::string_view bytes);
  bool closed() const { return closed_; }

 private:
  int fd_;
  bool closed_ = false;
};

}  // namespace nd
