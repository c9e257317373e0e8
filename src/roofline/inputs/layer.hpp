#pragma once
// Layer inputs (reading inputs): namespace roofline::inputs. Its code names what the layers
// below it declare unqualified: the namespace imports the layer directly below, which
// imports theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/base/layer.hpp"

namespace roofline::inputs {
using namespace roofline::base;
}  // namespace roofline::inputs
