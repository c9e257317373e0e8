#pragma once
// What count_step_rows says (docs/method.md §22.4, rows from the trace): the rows of each regime's
// steps as the kernels beside the GEMMs count them.
#include <optional>
#include <string>

#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/topn_document.hpp"

namespace roofline::analyze {

struct StepRows {
  // The step's rows: tokens in a prefill step, requests in a decode one; unset where no
  // row-per-block kernel stands beside a GEMM of that regime, or where they disagree.
  PerRegime<double> rows;
  PerRegime<std::string> why;  // which kernels counted them, or why they are not used
};

}  // namespace roofline::analyze
