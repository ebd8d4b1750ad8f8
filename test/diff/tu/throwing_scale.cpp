// The other translation unit of throwing_calls.cpp: a helper that may throw
// (it is not noexcept, and LLVM cannot see its body from the loop's unit),
// which the program never makes throw.
#include <cstdint>
#include <stdexcept>

std::int64_t checked_scale(std::int64_t v) {
  if (v < 0)
    throw std::invalid_argument("negative value");
  return v * 3 + 1;
}
