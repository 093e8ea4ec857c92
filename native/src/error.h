// One exception type for everything native raises; the N-API layer turns it into a JS Error
// whose message names the op and the offending shapes/dtypes/indices.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>
#include <cstdint>

namespace skiff {

struct SkiffError : std::runtime_error {
  explicit SkiffError(const std::string& m) : std::runtime_error(m) {}
};

inline std::string shape_str(const std::vector<int64_t>& s) {
  std::string o = "[";
  for (size_t i = 0; i < s.size(); i++) { if (i) o += ", "; o += std::to_string(s[i]); }
  return o + "]";
}

#define SKIFF_CHECK(cond, msg)                       \
  do {                                               \
    if (!(cond)) throw ::skiff::SkiffError(msg);     \
  } while (0)

}  // namespace skiff
