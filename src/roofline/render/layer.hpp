#pragma once
// Layer render (everything that leaves the process): namespace roofline::render. Its code names what the layers
// below it declare unqualified: the namespace imports the layer directly below, which
// imports theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/analyze/layer.hpp"

namespace roofline::render {
using namespace roofline::analyze;
}  // namespace roofline::render
