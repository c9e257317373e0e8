#pragma once
// Private to src/topn: the launching op's module path (docs/method.md §22.7) — the innermost two
// `nn.Module: <Name>_<k>` python spans enclosing the op on its thread, GraphModule and the
// model's own class left out.

#include <string>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

class OpModules {
 public:
  // Indexes the module spans of `ev` (sorts ev.modules and links each to its parent).
  explicit OpModules(ChromeEvents& ev);
  // "Outer.Inner" (or one name), "" when no module encloses the op.
  std::string path_of(const OpRec& op) const { return path_at(op.thread, op.ts_us); }
  // The same for a launch made on `thread` at `ts_us` (docs/method.md §22.10: a launch with no op
  // of its own, a custom kernel called from Python, is placed by the modules enclosing its call).
  std::string path_at(std::int32_t thread, double ts_us) const;

 private:
  const ChromeEvents& ev_;
};

}  // namespace roofline::topn::detail
