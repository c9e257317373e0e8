#pragma once
// Shared fixtures for the unit tests: hand-built structs only (no files, no processes).

#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "roofline/analyze/analysis.hpp"
// The passes the unit tests call, each by its own header.
#include "roofline/analyze/steps/advise.hpp"
#include "roofline/analyze/steps/classify_head.hpp"
#include "roofline/analyze/steps/deepen.hpp"
#include "roofline/analyze/steps/gather_evidence.hpp"
#include "roofline/analyze/steps/grade.hpp"
#include "roofline/analyze/steps/infer_steps.hpp"
#include "roofline/analyze/steps/judge.hpp"
#include "roofline/analyze/steps/model_work.hpp"
#include "roofline/analyze/steps/pick_regimes.hpp"
#include "roofline/analyze/steps/plan_shapeless_gemms.hpp"
#include "roofline/analyze/steps/rank_entries.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/analyze/steps/scope_to_head.hpp"
#include "roofline/analyze/steps/weight_evidence.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"

namespace roofline::test {

using namespace roofline::cli;

// The typed detail a table row `cls:text` carries, through the one parser (must be accepted).
inline ClassDetail detail_of(OpClass cls, std::string_view text) {
  std::string error;
  auto d = parse_class_detail(cls, text, error);
  INFO(error);
  REQUIRE(d.has_value());
  return *d;
}

// Relative tolerance for every float comparison.
inline Approx rel(double v, double eps = 1e-9) {
  return Approx(v).epsilon(eps);
}

// True when one of `lines` contains every needle.
inline bool any_contains(const std::vector<std::string>& lines,
                         std::initializer_list<std::string_view> needles) {
  for (const auto& l : lines) {
    bool all = true;
    for (auto n : needles)
      if (l.find(n) == std::string::npos) all = false;
    if (all) return true;
  }
  return false;
}

inline bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

// A workload {isl, osl, conc} (the env report's three figures; nothing measured).
inline Workload workload(double isl, double osl, double conc) {
  Workload w;
  w.isl = isl;
  w.osl = osl;
  w.conc = conc;
  return w;
}

// gfx950 (MI350X/MI355X) denominators as docs/method.md §2.6 lists them, resolved by hand.
inline ResolvedPeaks gfx950_peaks() {
  ResolvedPeaks p;
  p.gfx = "gfx950";
  p.hbm_bw_bytes_s = 8.0e12;
  p.flops = {{DtypeKey::fp64, 7.86e13}, {DtypeKey::fp32, 1.57e14}, {DtypeKey::bf16, 2.5e15},
             {DtypeKey::fp16, 2.5e15},  {DtypeKey::fp8, 5.0e15},   {DtypeKey::int8, 5.0e15},
             {DtypeKey::fp4, 1.0e16}};
  p.l2_bytes = 4194304.0;
  p.source = PeaksSource::table;
  p.confidence = Confidence::high;
  p.compute_validated = true;
  return p;
}

// gfx1201 + product r9700 as docs/method.md §2.6 lists it.
inline ResolvedPeaks r9700_peaks() {
  ResolvedPeaks p;
  p.gfx = "gfx1201";
  p.product = "r9700";
  p.hbm_bw_bytes_s = 6.4e11;
  p.flops = {{DtypeKey::fp32, 4.78e13},
             {DtypeKey::bf16, 1.91e14},
             {DtypeKey::fp16, 1.91e14},
             {DtypeKey::fp8, 3.83e14},
             {DtypeKey::int8, 3.83e14}};
  p.l2_bytes = 8388608.0;
  p.source = PeaksSource::table;
  p.confidence = Confidence::high;
  p.compute_validated = true;
  return p;
}

inline Dtype dt(const char* key, double bytes) {
  auto k = dtype_key_from(key);
  REQUIRE(k.has_value());
  return Dtype{*k, bytes, true};
}

// A modeled single-candidate WorkEstimate for the judge.
inline WorkEstimate work_of(double bytes, double flops, double t_unit_ms,
                            Dtype compute = dt("bf16", 2.0)) {
  WorkEstimate w;
  w.modeled = true;
  w.unit = "1 launch";
  w.t_unit_ms = t_unit_ms;
  w.bytes = bytes;
  w.flops = flops;
  w.candidates.push_back({"model", bytes, flops, true});
  w.compute_dtype = compute;
  return w;
}

// One entry's inputs to model_work on gfx950 (decode, workload isl = osl = 1024, conc 64); each
// test file's fixture derives from it and fills in the class-specific fields.
struct ModelCase {
  EnvReport env;
  ModelConfig config;
  ResolvedPeaks peaks = gfx950_peaks();
  TopnEntry entry;
  RegimeChoice regime;
  Classification cls;
  ModelCase() {
    env.gfx = "gfx950";
    env.workload.isl = 1024;
    env.workload.osl = 1024;
    env.workload.conc = 64;
    config.dtype = "bfloat16";
    regime.regime = Regime::decode;
  }
  WorkEstimate run() const {
    return model_work(entry, regime, cls, ModelContext{&env, &config, "", &peaks});
  }
};

}  // namespace roofline::test
