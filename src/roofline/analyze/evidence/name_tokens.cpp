// A kernel name's tokens (docs/method.md §22.5): the MoE siblings' family and fused activation.
#include "roofline/analyze/evidence/name_tokens.hpp"

#include <algorithm>
#include <cctype>

namespace roofline::analyze {
namespace {

bool is_activation(const std::string& t) {
  return t == "swiglu" || t == "silu" || t == "gelu" || t == "act" || t == "geglu" ||
         t == "swigluoai" || t == "activation";  // CUTLASS MoE: `Activation_Type` template arg
}

}  // namespace

std::vector<std::string> name_tokens(const std::string& name) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool fused_activation(const std::string& name) {
  const auto t = name_tokens(name);
  return std::any_of(t.begin(), t.end(), is_activation);
}

}  // namespace roofline::analyze
