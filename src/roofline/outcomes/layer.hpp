#pragma once
// Layer outcomes (closing the loop between predictions and measurements): namespace roofline::outcomes. Its code names what the layers
// below it declare unqualified: the namespace imports the layer directly below, which
// imports theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/render/layer.hpp"

namespace roofline::outcomes {
using namespace roofline::render;
}  // namespace roofline::outcomes
