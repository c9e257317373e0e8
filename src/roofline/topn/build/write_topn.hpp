#pragma once
// The render of `roofline topn`: TopnBuild -> the text of profile_topN.json and
// profile_workload.json. Pure.

#include <string>

#include "roofline/topn/build/build_topn.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn {

// profile_topN.json text (docs/method.md §2.3 field order; shapes three levels deep,
// docs/method.md §2.3).
std::string render_topn_json(const TopnDocument& doc);
// profile_workload.json text (`schema: "workload-v1"`, docs/method.md §2.3).
std::string render_workload_json(const TopnBuild& build);

}  // namespace roofline::topn
