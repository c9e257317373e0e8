// The regime as every surface prints it (docs/method.md §6.4).
#include "roofline/analyze/entry/regime_choice.hpp"

namespace roofline::analyze {

std::string regime_label(const RegimeChoice& choice) {
  return choice.known ? to_string(choice.regime) : "unknown";
}

}  // namespace roofline::analyze
