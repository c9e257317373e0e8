#pragma once
// The Top-N from raw traces, as `roofline topn` builds it: shared by `topn` (which writes it) and
// `analyze TRACE` (which analyses it in memory and writes it beside the artifacts).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/topn/topn.hpp"

namespace roofline::cli {

// Reads the capture traces, then every trace (notes and warnings to stderr, each naming its
// file), merges them by kernel name and builds the Top-N of the `top` kernels with the most GPU
// time. nullopt when a trace could not be read (the reason already on stderr).
std::optional<TopnBuild> topn_from_traces(const std::vector<std::string>& traces,
                                          const std::vector<std::string>& captures,
                                          std::size_t top);

}  // namespace roofline::cli
