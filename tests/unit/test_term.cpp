// term.hpp: named model terms and the one renderer of their note text.
#include <catch2/catch.hpp>

#include "roofline/base/term.hpp"
#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_term {
using namespace roofline::cli;
using roofline::test::rel;

TEST_CASE("term: the renderer writes name, formula, expansion, value and remark", "[term]") {
  CHECK(render(term("flops", "2·M·N·K", 1.2345678e9, TermUnit::flops)) ==
        "flops = 2·M·N·K = 1.235e+09");
  Term t = term("bytes", "B·S·c·kv", 697180000.0);
  t.remark = "K and V";
  CHECK(render(t) == "bytes = B·S·c·kv = 697.18 MB (K and V)");
  // No formula: the name and the value; no name: the formula and the value.
  CHECK(render(term("S", "", 4416, TermUnit::count)) == "S = 4416");
  CHECK(render(part("Σ of 3 recorded operands, each moved once", 2048)) ==
        "Σ of 3 recorded operands, each moved once = 2.05 kB");
  // A relation other than "=" replaces the first one only.
  Term f = term("flops", "elements", 131072, TermUnit::flops);
  f.relation = "≈";
  CHECK(render(f) == "flops ≈ elements = 1.311e+05");
  Term u = term("hbm_util", "", 0.123, TermUnit::fraction);
  u.relation = "≥";
  CHECK(render(u) == "hbm_util ≥ 12.3%");
  Term e = term("experts_hit", "E·(1-(1-1/E)^pairs)", 12.3456, TermUnit::count);
  e.display = Shown::fixed2;
  CHECK(render(e) == "experts_hit = E·(1-(1-1/E)^pairs) = 12.35");
}

TEST_CASE("term: sums take their value from their parts", "[term]") {
  const Term s = sum("bytes", {part("M·K·a", 1000), part("K·N·w", 2000), part("M·N·a", 500)});
  CHECK(s.value == rel(3500));
  CHECK(render(s) == "bytes = M·K·a 1.00 kB + K·N·w 2.00 kB + M·N·a 500 B = 3.50 kB");
  CHECK(render_parts({part("in", 1000), part("out", 2000)}) == "in 1.00 kB + out 2.00 kB");
  const Term f = sum_of_formulas("bytes", {part("2·N·H·D²·s", 4000), part("4·N·H·D·a", 1000)});
  CHECK(render(f) == "bytes = 2·N·H·D²·s + 4·N·H·D·a = 5.00 kB");
  const Term b = scaled_sum("bytes", "Bt", 4, {part("M·K·a", 1000), part("K·N·w", 2000)});
  CHECK(b.value == rel(12000));
  CHECK(render(b) == "bytes = Bt·(M·K·a + K·N·w) = 4·(1.00 kB + 2.00 kB) = 12.00 kB");
  CHECK(render_all({term("a", "", 1, TermUnit::count), term("b", "", 2, TermUnit::count)}, ", ") ==
        "a = 1, b = 2");
}

}  // namespace unit_term
