// docs/method.md §10.8: bands — the readings a model's evidence allows, each judged by the point's
// formulas, the verdict that holds across them, the sure-gain ranking, and band misses.
#include <cmath>

#include <catch2/catch.hpp>

#include "roofline/analyze/models/dispatch.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "unit/test_helpers.hpp"

namespace unit_band {
using namespace roofline::cli;
using roofline::test::dt;
using roofline::test::gfx950_peaks;
using roofline::test::rel;
using roofline::test::work_of;

namespace {

// A decode GEMM on gfx950 (8 TB/s, target_eff 0.90) at 0.1 ms holding 10 % of GPU time, its
// taken reading `bytes` and one other reading `other` with the same FLOPs (AI far below the
// ridge: the memory axis judges both).
WorkEstimate two_readings(double bytes, double other) {
  WorkEstimate w = work_of(bytes, 1.0e9, 0.1);
  w.readings.push_back(Reading{"other_reading", "the table gathered",
                               "the same words read the "
                               "other way",
                               other, 1.0e9, std::nullopt});
  return w;
}

// The hand calculation of docs/method.md §10.5 for one memory-axis reading.
struct Hand {
  double pct, attainable, gain;
};
Hand hand(double bytes) {
  const double r = bytes / 1.0e-4 / 8.0e12;
  const double a = std::max(1.0, 0.90 / r);
  return {r, a, 10.0 * (1.0 - 1.0 / a)};
}

constexpr double k_weight_elems = 3.0 * 512 * 2048;  // both stages, I = 512, H = 2048
constexpr double k_act_bytes = 2.0 * 64 * 2048;

// fused_moe_kernel of the worked example (docs/method.md §20, recorded on MI355X): 256 experts,
// top-8 over 64 tokens, fp8 weights; experts_hit reported, every expert for comparison.
WorkEstimate worked_moe(double t_unit_ms) {
  const double hit = 256.0 * (1.0 - std::pow(1.0 - 1.0 / 256.0, 512.0));
  const double flops = 2.0 * 512 * k_weight_elems;
  WorkEstimate w = work_of(hit * k_weight_elems + k_act_bytes, flops, t_unit_ms, dt("fp8", 1.0));
  w.candidates.clear();
  w.candidates.push_back({"experts_hit", hit * k_weight_elems + k_act_bytes, flops, std::nullopt,
                          true, CandidateKind::experts_hit});
  w.candidates.push_back({"all experts", 256.0 * k_weight_elems + k_act_bytes, flops, std::nullopt,
                          false, CandidateKind::all_experts});
  MoeFacts m;
  m.experts = 256;
  m.top_k = 8;
  m.pairs = 512;
  m.experts_hit = hit;
  m.weight_elems_per_expert = k_weight_elems;
  m.weight_bytes_per_elem = 1.0;
  m.activation_bytes = k_act_bytes;
  w.moe = m;
  choose_candidate(w, gfx950_peaks());
  return w;
}

}  // namespace

TEST_CASE("band: the per-reading propagation against a hand calculation, inside one class",
          "[band]") {
  // 400 MB and 300 MB in 0.1 ms of 8 TB/s: 50 % and 37.5 % of the roof, both underperforming.
  const Verdict v = judge(two_readings(400e6, 300e6), OpClass::gemm, 10.0, gfx950_peaks(), {});
  const Hand a = hand(400e6), b = hand(300e6);
  CHECK(a.pct == rel(0.5));
  CHECK(a.attainable == rel(1.8));
  CHECK(a.gain == rel(10.0 * (1.0 - 1.0 / 1.8)));  // 4.444 %
  CHECK(b.attainable == rel(2.4));
  CHECK(b.gain == rel(10.0 * (1.0 - 1.0 / 2.4)));  // 5.833 %
  // The point is the taken reading, unchanged.
  CHECK(v.roofline_pct.value() == rel(a.pct));
  CHECK(v.expected_e2e_gain_pct == rel(a.gain));
  CHECK(v.headroom == Headroom::underperforming);
  const Band& band = v.band;
  REQUIRE(band.readings.size() == 2);
  CHECK(band.readings[0].taken);
  CHECK_FALSE(band.readings[1].taken);
  CHECK(band.kind == BandKind::holds);
  REQUIRE(band.classes.size() == 1);
  CHECK(band.classes[0] == Headroom::underperforming);
  CHECK(band.roofline_pct->lo == rel(b.pct));
  CHECK(band.roofline_pct->hi == rel(a.pct));
  CHECK(band.attainable_speedup->lo == rel(1.8));
  CHECK(band.attainable_speedup->hi == rel(2.4));
  CHECK(band.expected_e2e_gain_pct->lo == rel(a.gain));
  CHECK(band.expected_e2e_gain_pct->hi == rel(b.gain));
  CHECK(band.settle.empty());
  CHECK_FALSE(band.withheld);
  CHECK(roofline::test::any_contains(v.notes, {"band (docs/method.md §10.8)", "holds"}));
}

TEST_CASE("band: across two classes — both named, with what would settle them", "[band]") {
  // 400 MB (50 %, underperforming) against 600 MB (75 %, moderate: ≥ 0.6 · 0.9).
  WorkEstimate w = two_readings(400e6, 600e6);
  const Verdict v = judge(w, OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(v.band.kind == BandKind::spans);
  REQUIRE(v.band.classes.size() == 2);
  CHECK(v.band.classes[0] == Headroom::moderate);
  CHECK(v.band.classes[1] == Headroom::underperforming);
  CHECK(v.band.expected_e2e_gain_pct->lo == rel(hand(600e6).gain));  // 1.667 %
  CHECK(v.band.expected_e2e_gain_pct->hi == rel(hand(400e6).gain));  // 4.444 %
  CHECK_THAT(v.band.settle, Catch::Contains("counters") && Catch::Contains("integer argument"));
  // The model's rule picked the taken reading: the point verdict stands beside the band.
  CHECK_FALSE(v.band.withheld);
  CHECK(v.headroom == Headroom::underperforming);

  // Nothing picks the taken reading (two readings beyond the 15 % band): no verdict, L2.
  w.readings_decide = true;
  const Verdict n = judge(w, OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(n.band.withheld);
  CHECK(n.headroom == Headroom::unknown);
  CHECK(n.expected_e2e_gain_pct == 0.0);
  CHECK(n.attainable_speedup == 1.0);
  const Grade g = grade(EvidenceLevel::A, w, n, gfx950_peaks());
  REQUIRE(g.problem);
  CHECK(g.problem->level == Level::L2);
  CHECK_THAT(g.problem->reason,
             Catch::Contains("moderate and underperforming") && Catch::Contains("counters"));
  // Inside one class the same undecided readings give the verdict, with the band.
  WorkEstimate one = two_readings(400e6, 300e6);
  one.readings_decide = true;
  const Verdict h = judge(one, OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(h.headroom == Headroom::underperforming);
  CHECK(h.band.kind == BandKind::holds);
}

TEST_CASE("band: a context bound's range passes through every class between its ends", "[band]") {
  // Taken 760 MB (95 %, saturated: ≥ 0.9 · 0.9), the bound's bottom 100 MB (12.5 %,
  // underperforming): every reading between them is one of the keys the bound allows, so the
  // moderate class lies inside the band too.
  WorkEstimate w = work_of(760e6, 1.0e9, 0.1);
  w.readings.push_back(Reading{"context_bound", "the shortest contexts the bound allows",
                               "907 keys in all", 100e6, 1.0e9, std::nullopt});
  w.readings_decide = true;
  const Verdict v = judge(w, OpClass::attn, 10.0, gfx950_peaks(), {});
  CHECK(v.band.kind == BandKind::spans);
  REQUIRE(v.band.classes.size() == 3);
  CHECK(v.band.classes[0] == Headroom::saturated);
  CHECK(v.band.classes[1] == Headroom::moderate);
  CHECK(v.band.classes[2] == Headroom::underperforming);
  // The workload's isl and osl narrow the range but never settle it: no option is named
  // (docs/method.md §16.4).
  CHECK_THAT(v.band.settle, Catch::Contains("Σkv") && Catch::Contains("only narrow the range") &&
                                !Catch::Contains("--isl") && !Catch::Contains("--osl"));
  CHECK(v.band.withheld);
  CHECK(v.headroom == Headroom::unknown);
  // Two discrete readings (not a range) name only their own classes.
  WorkEstimate d = w;
  d.readings[0].key = "other_reading";
  CHECK(judge(d, OpClass::attn, 10.0, gfx950_peaks(), {}).band.classes.size() == 2);
}

TEST_CASE("band: a shapeless GEMM's rows the grid bounds", "[band]") {
  // A decode lm_head at the grid's top, 64 rows: 760 MB (95 %, saturated); at its fewest, 1 row,
  // 100 MB — a range like a context bound's, so it passes through moderate too, and what settles
  // it is the step's rows.
  WorkEstimate w = work_of(760e6, 1.0e9, 0.1);
  w.readings.push_back(Reading{"grid_rows", "M = 1 (the fewest rows the grid allows)",
                               "grid 1×2374 = 2374 blocks", 100e6, 1.0e9, std::nullopt});
  w.readings_decide = true;
  const Verdict v = judge(w, OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(v.band.kind == BandKind::spans);
  REQUIRE(v.band.classes.size() == 3);
  CHECK(v.band.classes[1] == Headroom::moderate);
  CHECK_THAT(v.band.settle,
             Catch::Contains("the step's rows settle M") &&
                 Catch::Contains("--conc in a decode step and --isl in a prefill step"));
  CHECK(v.headroom == Headroom::unknown);
  // A prefill's length bound is a range too, settled by each sequence's lengths.
  WorkEstimate lengths = w;
  lengths.readings[0].key = "seqlen_bound";
  const Verdict l = judge(lengths, OpClass::attn, 10.0, gfx950_peaks(), {});
  CHECK(l.band.classes.size() == 3);
  CHECK_THAT(l.band.settle, Catch::Contains("query and context lengths settle the pairs"));
  // A weight-bound decode GEMM: 700 and 690 MB at the two ends, both saturated — the verdict
  // holds across the band.
  WorkEstimate held = work_of(700e6, 1.0e9, 0.1);
  held.readings.push_back(Reading{"grid_rows", "M = 1 (the fewest rows the grid allows)", "grid",
                                  690e6, 1.0e9, std::nullopt});
  held.readings_decide = true;
  const Verdict h = judge(held, OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(h.band.kind == BandKind::holds);
  CHECK(h.headroom == Headroom::saturated);
}

TEST_CASE("band: a reading the time refutes leaves one feasible; exact evidence is one point",
          "[band]") {
  // 900 MB cannot move in 0.1 ms at 8 TB/s (800 MB): only the taken reading has a verdict.
  const Verdict v = judge(two_readings(400e6, 900e6), OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(v.band.kind == BandKind::one_feasible);
  CHECK_FALSE(v.band.readings[1].feasible);
  CHECK(v.band.expected_e2e_gain_pct->lo == rel(hand(400e6).gain));
  CHECK(v.band.expected_e2e_gain_pct->hi == rel(hand(400e6).gain));
  // No other reading: a band of one point, no intervals.
  const Verdict p = judge(work_of(400e6, 1.0e9, 0.1), OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(p.band.readings.size() == 1);
  CHECK(p.band.kind == BandKind::point);
  CHECK_FALSE(p.band.expected_e2e_gain_pct);
  CHECK(sure_gain_pct(p) == rel(p.expected_e2e_gain_pct));
}

TEST_CASE("band: MoE experts hit against every expert (the worked example, recorded)",
          "[band][moe]") {
  // At its recorded 2 × 49.471 µs the layer can move at most 791.5 MB: every expert (805.6 MB)
  // is refuted, experts_hit (699.9 MB) is the band.
  const WorkEstimate w = worked_moe(2 * 0.049471);
  const Verdict v = judge(w, OpClass::moe, 26.45, gfx950_peaks(), {});
  REQUIRE(v.band.readings.size() == 2);
  CHECK(v.band.readings[1].reading.key == "all_experts");
  CHECK(v.band.readings[1].reading.bytes == rel(256.0 * k_weight_elems + k_act_bytes));
  CHECK_FALSE(v.band.readings[1].feasible);
  CHECK(v.band.kind == BandKind::one_feasible);
  // At twice the time both fit: 44.2 % and 50.9 % of the roof, both underperforming (< 54 %).
  const WorkEstimate slow = worked_moe(4 * 0.049471);
  const Verdict s = judge(slow, OpClass::moe, 26.45, gfx950_peaks(), {});
  CHECK(s.band.kind == BandKind::holds);
  const double t = 4 * 0.049471e-3;
  const double r_hit = slow.candidates[0].bytes / t / 8.0e12,
               r_all = slow.candidates[1].bytes / t / 8.0e12;
  CHECK(s.band.roofline_pct->lo == rel(r_hit));
  CHECK(s.band.roofline_pct->hi == rel(r_all));
  CHECK(s.band.expected_e2e_gain_pct->lo == rel(26.45 * (1.0 - r_all / 0.90)));
  CHECK(s.band.expected_e2e_gain_pct->hi == rel(26.45 * (1.0 - r_hit / 0.90)));
  CHECK(s.band.classes == std::vector<Headroom>{Headroom::underperforming});
  // A stage-C entry is one point: the counters measured the bytes.
  WorkEstimate measured = slow;
  measured.measured_vs_model = MeasuredVsModel{};
  CHECK(judge(measured, OpClass::moe, 26.45, gfx950_peaks(), {}).band.readings.empty());
}

TEST_CASE("band: a dtype reading is judged against its own compute peak", "[band][quant]") {
  // A compute-bound GEMM: fp8 (5 PFLOP/s) or bf16 weights (2.5 PFLOP/s), 1 TFLOP in 0.5 ms.
  WorkEstimate w = work_of(100e6, 1.0e12, 0.5, dt("fp8", 1.0));
  w.readings.push_back(Reading{"weights_other", "weights bf16", "the weights' other format", 150e6,
                               1.0e12, dt("bf16", 2.0)});
  const Verdict v = judge(w, OpClass::gemm, 10.0, gfx950_peaks(), {});
  CHECK(v.compute_axis);
  CHECK(v.roofline_pct.value() == rel(1.0e12 / 0.5e-3 / 5.0e15));                   // 40 %
  CHECK(v.band.readings[1].roofline_pct.value() == rel(1.0e12 / 0.5e-3 / 2.5e15));  // 80 %
  CHECK(v.band.kind == BandKind::spans);
  CHECK_THAT(v.band.settle, Catch::Contains("quantization_config"));
}

TEST_CASE("rank_entries: the sure gain orders by the band's low end", "[band][rankings]") {
  // "+3.1 to +7.4 %" ranks differently from "+4.8 to +5.2 %" by its sure gain.
  auto entry = [](const char* name, double gain, double lo, double hi) {
    HeadEntry e;
    e.name = e.short_name = e.ranking_name = name;
    e.pct_gpu_time = e.share.pct = 20.0;
    e.verdict.headroom = Headroom::underperforming;
    e.verdict.expected_e2e_gain_pct = gain;
    e.verdict.band.kind = BandKind::holds;
    e.verdict.band.expected_e2e_gain_pct = Interval{lo, hi};
    return e;
  };
  const std::vector<HeadEntry> entries{entry("wide", 5.1, 3.1, 7.4),
                                       entry("narrow", 5.0, 4.8, 5.2)};
  const Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(r.by_expected_gain == std::vector<std::size_t>{0, 1});
  CHECK(r.by_sure_gain == std::vector<std::size_t>{1, 0});
  CHECK(sure_gain_pct(entries[0].verdict) == rel(3.1));
}

TEST_CASE("outcomes: a measured speedup above the band's high end is a miss", "[band][outcomes]") {
  auto record = [](double measured, std::optional<double> band_hi, const char* verdict) {
    LedgerRecord r;
    r.predicted_present = true;
    r.predicted.headroom_class = "moderate";
    r.predicted.attainable_speedup = 1.2;
    r.predicted.band_speedup_hi = band_hi;
    if (band_hi) r.predicted.band_speedup_lo = 1.1;
    r.isolated_speedup = measured;
    r.verdict = verdict;
    return r;
  };
  const std::vector<LedgerRecord> records{
      record(1.4, 1.5, "contradiction"),           // above the point's ceiling, inside the band
      record(1.6, 1.5, "contradiction"),           // above the band: a miss
      record(1.1, 1.5, "confirmed"),               // below the band: expected
      record(1.3, std::nullopt, "contradiction"),  // no band: the point is the band, a miss
      record(1.5, 1.5, "undefined"),               // not counted
  };
  const BandMisses m = count_band_misses(records, 0.034);
  CHECK(m.measured == 4);
  CHECK(m.missed == 2);
  CHECK(m.contradictions == 3);
}

}  // namespace unit_band
