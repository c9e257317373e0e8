// The artifact spellings of the closed sets (vocabulary.hpp).
#include "roofline/base/vocabulary.hpp"

#include "roofline/base/units.hpp"

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

const char* to_string(CeilingKind c) {
  return c == CeilingKind::measured ? "measured" : "datasheet";
}

std::optional<CeilingKind> parse_ceiling(std::string_view s) {
  if (s == "datasheet") return CeilingKind::datasheet;
  if (s == "measured") return CeilingKind::measured;
  return std::nullopt;
}

const char* to_string(Regime r) {
  return r == Regime::prefill ? "prefill" : "decode";
}

const char* to_string(Stage s) {
  switch (s) {
    case Stage::A:
      return "A";
    case Stage::B:
      return "B";
    case Stage::C:
      return "C";
  }
  return "A";
}

const char* to_string(Level l) {
  switch (l) {
    case Level::L1:
      return "L1";
    case Level::L2:
      return "L2";
    case Level::L3:
      return "L3";
    case Level::L4:
      return "L4";
    case Level::L5:
      return "L5";
  }
  return "L5";
}

const char* to_string(MatchKind k) {
  switch (k) {
    case MatchKind::none:
      return "none";
    case MatchKind::exact:
      return "exact";
    case MatchKind::normalized:
      return "normalized";
    case MatchKind::substring:
      return "substring";
    case MatchKind::short_name:
      return "short_name";
  }
  return "none";
}

std::string subject(const Diagnostic& d) {
  switch (d.topic) {
    case Topic::entry:
      return d.entry;
    case Topic::peaks:
      return "(peaks)";
    case Topic::probes:
      return "(probes)";
    case Topic::counters:
      return "(counters)";
    case Topic::input:
      break;
  }
  return "";
}

std::optional<OpClass> parse_op_class(std::string_view s) {
  const std::string l = lower_ascii(trim_view(s));
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
