#pragma once
// Private to src/topn: the launching op's module path (docs/method.md §22.7) — the innermost two
// `nn.Module: <Name>_<k>` python spans enclosing the op on its thread, GraphModule and the
// model's own class left out.

#include <cstdint>
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
  // The same as a labels id of `ev` (k_no_id: none), worked out once per innermost span.
  std::uint32_t path_id_at(std::int32_t thread, double ts_us, ChromeEvents& ev) const;

 private:
  // The innermost span enclosing (thread, ts_us), -1 none.
  std::int32_t innermost(std::int32_t thread, double ts_us) const;
  std::string path_from(std::int32_t span) const;
  const ChromeEvents& ev_;
  std::vector<std::int32_t> parent_;             // per span, the enclosing one (-1 none)
  mutable std::vector<std::uint32_t> path_ids_;  // per innermost span, its path's labels id
};

}  // namespace roofline::topn::detail
