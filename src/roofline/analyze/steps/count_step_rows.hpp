#pragma once
// Pass count_step_rows (docs/method.md §22.4, rows from the trace): the rows of each regime's
// steps, counted by the row-per-block kernels beside the head's matrix kernels.
#include <vector>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/entry/step_rows.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct HeadEntry;

// For each regime: the rows a norm before a GEMM or MoE signature of that regime covers (its
// output is the matrix kernel's input) or an activation-and-multiply after it (its input is the
// kernel's output), each launching its blocks along the rows; where every such neighbour agrees,
// those are the step's rows — tokens in prefill, requests in decode — for every model that needs
// the rows in flight and finds none recorded (docs/method.md §6.4). Disagreeing neighbours give
// none, and say so. Reads each entry's `classified` and workload cases; writes nothing else.
StepRows count_step_rows(const std::vector<HeadEntry>& head, Findings& found);

}  // namespace roofline::analyze
