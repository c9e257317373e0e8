// Names of the closed sets the artifact uses.
#include "core/json_input.hpp"
#include "roofline/analysis.hpp"

namespace roofline {

const char* to_string(OpClass c) {
  switch (c) {
    case OpClass::gemm:
      return "gemm";
    case OpClass::moe:
      return "moe";
    case OpClass::attn:
      return "attn";
    case OpClass::linear_attn:
      return "linear_attn";
    case OpClass::ssm:
      return "ssm";
    case OpClass::comm:
      return "comm";
    case OpClass::elementwise:
      return "elementwise";
    case OpClass::unknown:
      return "unknown";
  }
  return "unknown";
}

const char* to_string(Bound b) {
  switch (b) {
    case Bound::memory:
      return "memory";
    case Bound::compute:
      return "compute";
    case Bound::latency:
      return "latency";
    case Bound::unknown:
      return "unknown";
  }
  return "unknown";
}

const char* to_string(Headroom h) {
  switch (h) {
    case Headroom::underperforming:
      return "underperforming";
    case Headroom::moderate:
      return "moderate";
    case Headroom::saturated:
      return "saturated";
    case Headroom::unknown:
      return "unknown";
  }
  return "unknown";
}

const char* to_string(Confidence c) {
  switch (c) {
    case Confidence::low:
      return "low";
    case Confidence::medium:
      return "medium";
    case Confidence::high:
      return "high";
  }
  return "low";
}

const char* to_string(PeaksSource s) {
  switch (s) {
    case PeaksSource::table:
      return "table";
    case PeaksSource::derived:
      return "derived";
    case PeaksSource::none:
      return "none";
  }
  return "none";
}

std::optional<OpClass> parse_op_class(std::string_view s) {
  std::string l = detail::lower_ascii(detail::trim(s));
  if (l == "gemm") return OpClass::gemm;
  if (l == "moe") return OpClass::moe;
  if (l == "attn" || l == "attention") return OpClass::attn;
  if (l == "linear_attn" || l == "linear_attention") return OpClass::linear_attn;
  if (l == "ssm" || l == "mamba") return OpClass::ssm;
  if (l == "comm" || l == "collective") return OpClass::comm;
  if (l == "elementwise") return OpClass::elementwise;
  if (l == "unknown") return OpClass::unknown;
  return std::nullopt;
}

}  // namespace roofline
