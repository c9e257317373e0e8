// Measured ceilings beside datasheet peaks (docs/method.md §5.7): the `measured:`
// block parsed and checked, the ceiling chosen per axis, feasibility on the datasheet, and a
// rate between the measured and the datasheet figure read saturated.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"
#include "unit/test_helpers.hpp"

namespace unit_ceilings {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::dt;
using roofline::test::rel;
using roofline::test::work_of;

namespace {

// One gfx942 section with `measured` appended (yaml lines, already indented).
std::string section_with(const std::string& measured) {
  return "```yaml\n"
         "gfx: gfx942\n"
         "hbm_bw_bytes_s: 5.3e12\n"
         "flops: {bf16: 1.31e15, fp16: 1.31e15, fp8: 2.61e15}\n" +
         measured + "```\n";
}

PeaksTable table_of(const std::string& md) {
  Loaded<PeaksTable> t = parse_peaks_md(md, "t.md");
  REQUIRE(t.value);
  return *t.value;
}

const std::string k_good = section_with(
    "measured:\n"
    "  hbm_bw_bytes_s: 4.2e12\n"
    "  flops: {bf16: 7.8e14, fp16: 7.9e14}\n"
    "  source: \"data/measure_peaks.py 2026-11-30\"\n");

}  // namespace

TEST_CASE("measured: parsed beside the datasheet figures", "[peaks][ceiling]") {
  Loaded<PeaksTable> t = parse_peaks_md(k_good, "t.md");
  REQUIRE(t.value);
  CHECK(t.errors.empty());
  const PeaksSection& s = t.value->sections.at(0);
  CHECK(s.hbm_bw_bytes_s.value() == rel(5.3e12));  // the datasheet figure stays
  REQUIRE(s.measured);
  CHECK(s.measured->hbm_bw_bytes_s.value() == rel(4.2e12));
  CHECK(s.measured->flops.at(DtypeKey::bf16) == rel(7.8e14));
  CHECK(s.measured->source == "data/measure_peaks.py 2026-11-30");
  CHECK(check_peaks(*t.value).empty());
  CHECK(check_peaks_warnings(*t.value).empty());
}

TEST_CASE("measured: a malformed block is a problem with its line", "[peaks][ceiling]") {
  SECTION("not a mapping") {
    Loaded<PeaksTable> t = parse_peaks_md(section_with("measured: 4.2e12\n"), "t.md");
    CHECK(any_contains(t.errors, {"t.md:1"}));
    CHECK(any_contains(t.errors, {"t.md:1 (gfx942), line 5: measured: expected a mapping"}));
  }
  SECTION("a misspelt axis, a bad number, an unknown dtype") {
    Loaded<PeaksTable> t = parse_peaks_md(section_with("measured:\n"
                                                       "  hbm_bw: 4.2e12\n"
                                                       "  flops: {bf16: fast, fp7: 1e14}\n"
                                                       "  source: x\n"),
                                          "t.md");
    CHECK(any_contains(t.errors, {"measured.hbm_bw: not a measured key"}));
    CHECK(any_contains(t.errors, {"measured.flops.bf16"}));
    CHECK(any_contains(t.errors, {"measured.flops.fp7: not a known dtype key"}));
  }
  SECTION("no source, no figure; a dtype the datasheet lacks") {
    PeaksTable t = table_of(section_with("measured:\n  flops: {fp32: 1e14}\n"));
    const auto problems = check_peaks(t);
    CHECK(any_contains(problems, {"measured: no source"}));
    CHECK(any_contains(problems, {"no datasheet flops.fp32"}));
    PeaksTable empty = table_of(section_with("measured:\n  source: x\n"));
    CHECK(any_contains(check_peaks(empty), {"measured: no figure"}));
  }
  SECTION("measured bf16 and fp16 more than 5 % apart: a warning, each dtype its own figure") {
    // A published pair (AMD's MI300X MAF: bf16 708, fp16 654) may differ: kept as measured data.
    PeaksTable t =
        table_of(section_with("measured:\n  flops: {bf16: 7.8e14, fp16: 6.0e14}\n  source: x\n"));
    CHECK(check_peaks(t).empty());
    const auto warnings = check_peaks_bf16_fp16(t);
    REQUIRE(warnings.size() == 1);
    CHECK(contains(warnings[0], "measured bf16 7.8e+14 and fp16 6e+14 differ by 23.1 %"));
    CHECK(contains(warnings[0], "bf16 kernels against 7.8e+14, fp16 against 6e+14"));
    ResolvedPeaks p = resolve_peaks(t, "gfx942", "", {});
    CHECK(p.flops.at(DtypeKey::bf16) == rel(7.8e14));
    CHECK(p.flops.at(DtypeKey::fp16) == rel(6.0e14));
    CHECK(p.compute_validated);  // the datasheet pair is equal
    CHECK(any_contains(p.notes, {"bf16 kernels are judged against the measured bf16 7.8e+14",
                                 "fp16 kernels against the measured fp16 6e+14"}));
  }
}

TEST_CASE("measured: above the datasheet or below 0.3 of it warns and is not used",
          "[peaks][ceiling]") {
  PeaksTable t =
      table_of(section_with("measured:\n"
                            "  hbm_bw_bytes_s: 5.6e12\n"
                            "  flops: {bf16: 3.0e14}\n"
                            "  source: x\n"));
  CHECK(check_peaks(t).empty());  // a warning, not a problem
  const auto warnings = check_peaks_warnings(t);
  REQUIRE(warnings.size() == 2);
  CHECK(any_contains(warnings, {"measured hbm_bw_bytes_s 5.6e+12 exceeds the datasheet"}));
  CHECK(any_contains(warnings, {"measured flops.bf16 3e+14 is below 0.3"}));
  ResolvedPeaks p = resolve_peaks(t, "gfx942", "", {});
  CHECK(p.hbm_bw_bytes_s.value() == rel(5.3e12));
  CHECK(p.memory_ceiling == CeilingKind::datasheet);
  CHECK(p.flops.at(DtypeKey::bf16) == rel(1.31e15));
  CHECK(compute_ceiling_for(p, DtypeKey::bf16) == CeilingKind::datasheet);
  CHECK_FALSE(any_measured_ceiling(p));
  CHECK(p.measured.has_value());  // recorded whole in the artifact
  CHECK(any_contains(p.notes, {"the datasheet figure is the memory ceiling"}));
}

TEST_CASE("resolve_peaks: a measured figure is the axis's ceiling, the datasheet stays",
          "[peaks][resolve][ceiling]") {
  ResolvedPeaks p = resolve_peaks(table_of(k_good), "gfx942", "", {});
  CHECK(p.hbm_bw_bytes_s.value() == rel(4.2e12));
  CHECK(feasibility_bw(p).value() == rel(5.3e12));
  CHECK(p.memory_ceiling == CeilingKind::measured);
  CHECK(peak_flops_for(p, DtypeKey::bf16).value() == rel(7.8e14));
  CHECK(datasheet_flops_for(p, DtypeKey::bf16).value() == rel(1.31e15));
  CHECK(compute_ceiling_for(p, DtypeKey::fp8) == CeilingKind::datasheet);
  CHECK(peak_flops_for(p, DtypeKey::fp8).value() == rel(2.61e15));
  CHECK(p.compute_validated);  // datasheet bf16 = fp16; measured within 5 %
  CHECK(any_contains(p.notes, {"measured ceilings (docs/method.md §5.7): memory 4.2e+12 B/s"}));
  CHECK(any_contains(p.notes, {"datasheet for fp8"}));
}

TEST_CASE("judge: between the measured and the datasheet rate is saturated, not infeasible",
          "[verdict][ceiling]") {
  const ResolvedPeaks p = resolve_peaks(table_of(k_good), "gfx942", "", {});
  // A memory-bound kernel at 4.5e12 B/s: 1.071 of the measured 4.2e12, 0.849 of the datasheet.
  const double bytes = 4.5e9, t_ms = 1.0;
  Verdict v = judge(work_of(bytes, 1e6, t_ms, dt("bf16", 2.0)), OpClass::elementwise, 20.0, p,
                    VerdictParams{});
  CHECK_FALSE(v.suspect);
  CHECK(v.ceiling == CeilingKind::measured);
  CHECK(v.ceiling_recorded);
  CHECK(v.hbm_util.value() == rel(4.5e12 / 4.2e12));
  CHECK(v.roofline_pct_raw.value() == rel(4.5e12 / 4.2e12));
  CHECK(v.roofline_pct.value() == rel(4.5e12 / 4.2e12));  // its own figure, never a clamped 1
  CHECK(v.ceiling_beaten);
  CHECK(v.headroom == Headroom::saturated);
  CHECK(v.attainable_speedup == rel(1.0));
  CHECK(any_contains(v.notes, {"the ceiling beaten — faster than the benchmark that measured it"}));

  // Above the datasheet: refuted by the hardware, judged on the datasheet figure.
  Verdict over = judge(work_of(5.5e9, 1e6, t_ms, dt("bf16", 2.0)), OpClass::elementwise, 20.0, p,
                       VerdictParams{});
  CHECK(over.suspect);
  CHECK(over.headroom == Headroom::unknown);
  CHECK_FALSE(over.roofline_pct);  // infeasible: no place on the roof
  CHECK_FALSE(over.ceiling_beaten);
  CHECK(over.bytes_upper_bound.value() == rel(5.3e12 * 1e-3));
  CHECK(any_contains(over.notes, {"of the datasheet memory roof"}));
}

TEST_CASE("judge: the roof axis divides by the measured compute ceiling", "[verdict][ceiling]") {
  const ResolvedPeaks p = resolve_peaks(table_of(k_good), "gfx942", "", {});
  const double n = 8192, flops = 2 * n * n * n, bytes = 3 * n * n * 2;
  const double t_s = flops / 7.0e14;  // 0.897 of the measured 7.8e14, 0.534 of the datasheet
  Verdict v = judge(work_of(bytes, flops, t_s * 1e3), OpClass::gemm, 30.0, p, VerdictParams{});
  CHECK(v.compute_axis);
  CHECK(v.ceiling == CeilingKind::measured);
  CHECK(v.compute_util.value() == rel(7.0e14 / 7.8e14));
  CHECK(v.ridge_point.value() == rel(7.8e14 / 4.2e12));
  CHECK(v.bound == Bound::compute);
  CHECK(v.headroom == Headroom::saturated);  // 0.897 ≥ 0.9 × 0.9
  CHECK(any_contains(v.notes, {"of the measured compute roof"}));
}

}  // namespace unit_ceilings
