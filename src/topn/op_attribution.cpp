// The launching op's module path (SERVING §4). Not yet: every op has none.
#include "topn/op_attribution.hpp"

namespace roofline::detail {

OpModules::OpModules(ChromeEvents& ev) : ev_(ev) {}

std::string OpModules::path_of(const OpRec&) const {
  return {};
}

}  // namespace roofline::detail
