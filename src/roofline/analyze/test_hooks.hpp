#pragma once
// Fault injection for the tests (tests/tools/fault_boundary.py), compiled into test builds only
// (ROOFLINE_TEST_HOOKS, set with ROOFLINE_TESTS): ROOFLINE_TEST_THROW=<point> makes the named
// point throw, as a bug there would, so the L5 boundary (docs/method.md §13) can be shown to still
// write. The points are the driver's pass names (inputs, scope, peaks, ..., rankings, problems,
// summary), `entry` (inside each entry's analysis) and the renderers (render_json, render_md,
// render_svg). A build without the tests has no hook: the function does nothing.

#include <stdexcept>
#include <string>
#include <string_view>

#ifdef ROOFLINE_TEST_HOOKS
#include <cstdlib>
#endif

namespace roofline {

// Throws std::runtime_error when ROOFLINE_TEST_THROW names `point` (test builds only).
inline void test_fault_point([[maybe_unused]] std::string_view point) {
#ifdef ROOFLINE_TEST_HOOKS
  const char* v = std::getenv("ROOFLINE_TEST_THROW");
  if (v && point == v)
    throw std::runtime_error("injected fault (ROOFLINE_TEST_THROW=" + std::string(point) + ")");
#endif
}

}  // namespace roofline
