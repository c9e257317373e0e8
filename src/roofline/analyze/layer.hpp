#pragma once
// Layer analyze (the method): namespace roofline::analyze. Its code names what the layers
// below it declare unqualified: the namespace imports the layer directly below, which
// imports theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/classify/layer.hpp"

namespace roofline::analyze {
using namespace roofline::classify;
}  // namespace roofline::analyze
