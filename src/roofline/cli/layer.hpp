#pragma once
// Layer cli (the command line): namespace roofline::cli. Its code names what the layers
// below it declare unqualified: the namespace imports the layers directly below, which
// import theirs (docs/ARCHITECTURE.md, "One rule").

#include "roofline/outcomes/layer.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::cli {
using namespace roofline::outcomes;
using namespace roofline::topn;
}  // namespace roofline::cli
