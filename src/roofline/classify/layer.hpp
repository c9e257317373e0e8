#pragma once
// Layer classify (the op class of a kernel): namespace roofline::classify. Its code names what the layers
// below it declare unqualified: the namespace imports the layer directly below, which
// imports theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/inputs/layer.hpp"

namespace roofline::classify {
using namespace roofline::inputs;
}  // namespace roofline::classify
