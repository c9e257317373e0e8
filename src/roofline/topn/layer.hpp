#pragma once
// Layer topn (the Top-N from raw profiler traces): namespace roofline::topn. Its code names what the layers
// below it declare unqualified: the namespace imports the layer directly below, which
// imports theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/classify/layer.hpp"

namespace roofline::topn {
using namespace roofline::classify;
}  // namespace roofline::topn
