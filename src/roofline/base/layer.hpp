#pragma once
// Layer base (the vocabulary every layer speaks): namespace roofline::base, the bottom of every layer's
// imports (docs/ARCHITECTURE.md, "One rule").

namespace roofline::base {}
