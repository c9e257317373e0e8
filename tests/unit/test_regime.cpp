// Stage 2 (docs/method.md §6, §2.3): the e2e-critical regime, t_ms and launches_per_step.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_regime {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {

TopnServing serving(std::optional<double> prefill, std::optional<double> decode) {
  TopnServing s;
  s.present = true;
  s.n_prefill_steps = prefill;
  s.n_decode_steps = decode;
  return s;
}

// fused_moe_kernel of the worked example: both regimes, per-regime fields.
TopnEntry moe_entry() {
  TopnEntry e;
  e.name = "fused_moe_kernel";
  e.calls = 164560;
  e.avg_us = 53.789;
  e.served_regimes = {"prefill", "decode"};
  e.phase = "both";
  e.phase_calls_measured.prefill = 1920;
  e.phase_calls_measured.decode = 162640;
  e.calls_per_step.prefill = 80;
  e.calls_per_step.decode = 80;
  e.base_latency_ms.prefill = 0.4196;
  e.base_latency_ms.decode = 0.049471;
  return e;
}

}  // namespace

TEST_CASE("pick_regime: the worked example is decode, from calls_per_step x steps", "[regime]") {
  RegimeChoice r = pick_regime(moe_entry(), serving(24, 2033));
  CHECK(r.regime == Regime::decode);
  CHECK(r.t_ms.value() == rel(0.049471));  // base_latency_ms.decode, not avg_us
  CHECK(r.launches_per_step.value() == rel(80));
}

TEST_CASE("pick_regime: the regime carrying the GPU time wins where launches are even",
          "[regime]") {
  // One eager prefill of 54 640 tokens and one replayed decode step (a SGLang DeepSeek-R1
  // profile): the kernel launches about as often in each, but the prefill holds its time.
  TopnEntry e = moe_entry();
  e.calls_per_step.prefill = 61;
  e.calls_per_step.decode = 64;
  e.base_latency_ms.prefill = 5.013;
  e.base_latency_ms.decode = 0.05;
  RegimeChoice r = pick_regime(e, serving(1, 1));
  CHECK(r.regime == Regime::prefill);
  CHECK(r.launches_per_step.value() == rel(61));
  CHECK(r.why.find("carries the GPU time") != std::string::npos);
  CHECK(r.why.find("305.793 ms") != std::string::npos);  // 61 × 5.013
  // Where the decode launches carry more time, decode.
  e.base_latency_ms.decode = 5.0;
  CHECK(pick_regime(e, serving(1, 1)).regime == Regime::decode);
}

TEST_CASE("pick_regime: the regime carrying the launches wins, not the one with more steps",
          "[regime]") {
  TopnEntry e = moe_entry();
  e.calls_per_step.prefill = 4000;  // 4000 x 24 = 96000 > 80 x 1000
  e.calls_per_step.decode = 80;
  RegimeChoice r = pick_regime(e, serving(24, 1000));
  CHECK(r.regime == Regime::prefill);
  CHECK(r.t_ms.value() == rel(0.4196));
  CHECK(r.launches_per_step.value() == rel(4000));
}

TEST_CASE("pick_regime: a single served regime is that regime", "[regime]") {
  TopnEntry e = moe_entry();
  e.served_regimes = {"prefill"};
  RegimeChoice r = pick_regime(e, serving(24, 2033));
  CHECK(r.regime == Regime::prefill);
  CHECK(r.t_ms.value() == rel(0.4196));

  TopnEntry phase_only;
  phase_only.name = "context_attention_fwd";
  phase_only.phase = "prefill";
  phase_only.avg_us = 812.0;
  CHECK(pick_regime(phase_only, serving(24, 2033)).regime == Regime::prefill);
}

TEST_CASE("pick_regime: phase_calls_measured when calls_per_step cannot be weighted", "[regime]") {
  TopnEntry e = moe_entry();
  e.calls_per_step = {};
  e.phase_calls_measured.prefill = 90000;
  e.phase_calls_measured.decode = 1000;
  RegimeChoice r = pick_regime(e, serving(std::nullopt, std::nullopt));
  CHECK(r.regime == Regime::prefill);
}

TEST_CASE("pick_regime: without per-regime data the larger step count decides", "[regime]") {
  TopnEntry e;
  e.name = "rms_norm_kernel";
  e.avg_us = 3.2;
  e.calls = 4000;
  CHECK(pick_regime(e, serving(3000, 1000)).regime == Regime::prefill);
  RegimeChoice d = pick_regime(e, serving(24, 2033));
  CHECK(d.regime == Regime::decode);
  // No per-regime latency: t_ms = avg_us / 1000; launches = calls / n_decode_steps.
  CHECK(d.t_ms.value() == rel(0.0032));
  CHECK(d.launches_per_step.value() == rel(4000.0 / 2033.0));
}

TEST_CASE("pick_regime: with nothing, unknown and a note: decode is never assumed", "[regime]") {
  TopnEntry e;
  e.name = "mystery";
  e.avg_us = 12.5;
  e.calls = 100;
  RegimeChoice r = pick_regime(e, TopnServing{});
  CHECK_FALSE(r.known);
  CHECK(regime_label(r) == "unknown");
  CHECK(any_contains(r.notes, {"regime unknown: ", "decode is never assumed"}));
  CHECK(r.t_ms.value() == rel(0.0125));
  CHECK_FALSE(r.launches_per_step.has_value());  // no step count: null
}

TEST_CASE("pick_regime: an unknown regime names only the options that settle it", "[regime]") {
  // docs/method.md §16.4: --regime always; --conc only where the rows rule would then decide (the
  // entry's operand rows, steps inferred, no workload.conc).
  TopnEntry e;
  e.name = "mystery";
  e.avg_us = 12.5;
  const InferredLaunches inferred;
  RegimeHints hints;
  hints.inferred = &inferred;
  const RegimeChoice bare = pick_regime(e, TopnServing{}, hints);
  CHECK_FALSE(bare.known);
  CHECK(bare.settled_by == std::vector<std::string>{"--regime decode|prefill"});
  e.shapes = {{6, 4096}, {4096, 4096}};  // 6 rows: --conc would weigh them
  const RegimeChoice rows = pick_regime(e, TopnServing{}, hints);
  CHECK(rows.settled_by == std::vector<std::string>{"--regime decode|prefill", "--conc"});
  // --conc given, and the rows rule then decides: known, nothing to settle.
  hints.conc = 2.0;
  const RegimeChoice given = pick_regime(e, TopnServing{}, hints);
  CHECK(given.known);
  CHECK(given.regime == Regime::prefill);  // 6 rows > 2 × workload.conc 2
  CHECK(given.settled_by.empty());
  // Without step inference the rows rule does not apply: --conc would change nothing.
  hints = RegimeHints{};
  CHECK(pick_regime(e, TopnServing{}, hints).settled_by ==
        std::vector<std::string>{"--regime decode|prefill"});
}

TEST_CASE("pick_regime: base_latency_ms of the other regime is not used", "[regime]") {
  TopnEntry e;
  e.name = "kernel_paged_attention_2d";
  e.avg_us = 141.0;
  e.served_regimes = {"decode"};
  e.base_latency_ms.prefill = 0.4;
  RegimeChoice r = pick_regime(e, serving(24, 2033));
  CHECK(r.regime == Regime::decode);
  CHECK(r.t_ms.value() == rel(0.141));
  CHECK_FALSE(r.t_ms.value() == rel(0.4));
}

TEST_CASE("pick_regime: calls_per_step of the chosen regime beats calls / steps", "[regime]") {
  TopnEntry e = moe_entry();
  e.calls = 999999;  // would give a different launches_per_step
  RegimeChoice r = pick_regime(e, serving(24, 2033));
  CHECK(r.launches_per_step.value() == rel(80));
}

TEST_CASE("pick_regime: a fractional launches-per-step figure is not used, on any vendor",
          "[regime]") {
  // A kernel launched in every other step of the ones counted: 1.5 a step is no whole number
  // (TRACES §4: within 5 %), so the steps counted are not the steps it ran in.
  TopnEntry e = moe_entry();
  e.calls_per_step.decode = 1.5;
  e.base_latency_ms.prefill = 0.049471;  // decode still carries the GPU time (3049.5 launches)
  RegimeChoice r = pick_regime(e, serving(24, 2033));
  CHECK_FALSE(r.launches_per_step.has_value());
  bool noted = false;
  for (const auto& n : r.notes)
    noted = noted || n.find("is not a whole number") != std::string::npos;
  CHECK(noted);
  e.calls_per_step.decode = 16.2;  // within 5 % of 16: kept
  CHECK(pick_regime(e, serving(24, 2033)).launches_per_step.value() == rel(16.2));
  e.calls_per_step.decode = 15.876;  // 2048 launches over 129 steps, one of them empty: kept
  CHECK(pick_regime(e, serving(24, 2033)).launches_per_step.value() == rel(15.876));
}

TEST_CASE("pick_regime: without step data, what the signature says decides", "[regime]") {
  TopnEntry e;
  e.name = "flash_fwd_splitkv_kernel";
  e.avg_us = 40.0;
  RegimeHints hints;
  hints.signature_regime = Regime::prefill;
  hints.signature_why = "1024 queries per sequence: prefill or mixed ('_vllm_fa2_C::varlen_fwd')";
  const RegimeChoice r = pick_regime(e, TopnServing{}, hints);
  CHECK(r.known);
  CHECK(r.regime == Regime::prefill);
  CHECK(any_contains(r.notes, {"the signature says so: 1024 queries per sequence"}));
  // step counts outrank the signature
  CHECK(pick_regime(e, serving(0.0, 12.0), hints).regime == Regime::decode);
}

}  // namespace unit_regime
