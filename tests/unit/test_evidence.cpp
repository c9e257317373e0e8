// Stage 4b (docs/method.md §11): matching probe and counter evidence to the head, deepening an
// entry with it, and the measured bytes replacing the model's (apply_measurement).
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_evidence {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::detail_of;
using roofline::test::gfx950_peaks;
using roofline::test::ModelCase;
using roofline::test::rel;
using roofline::test::work_of;

namespace {

std::vector<HeadEntry> head_of(std::initializer_list<std::pair<const char*, const char*>> names) {
  std::vector<HeadEntry> head;
  for (const auto& [name, short_name] : names) {
    HeadEntry e;
    e.topn_position = e.topn_index = head.size();
    e.name = e.ranking_name = name;
    e.short_name = short_name;
    e.pct_gpu_time = e.share.pct = 10.0;
    head.push_back(e);
  }
  return head;
}

KernelCounters counted(const std::string& name, double fetch_kib, double write_kib,
                       std::uint64_t dispatches, double ns_per_dispatch) {
  KernelCounters k;
  k.name = name;
  k.dispatches = k.timed_dispatches = dispatches;
  k.duration_ns_sum = ns_per_dispatch * static_cast<double>(dispatches);
  const double n = static_cast<double>(dispatches);
  k.counters["FETCH_SIZE"] = {fetch_kib * n, dispatches};
  k.counters["WRITE_SIZE"] = {write_kib * n, dispatches};
  return k;
}

}  // namespace

TEST_CASE("gather_evidence: counters matched per head entry, files and problems listed",
          "[evidence]") {
  std::vector<HeadEntry> head = head_of({{"fused_moe_kernel", "fused_moe_kernel"},
                                         {"kernel_paged_attention_2d", "kernel_paged_attention_2d"},
                                         {"rms_norm_kernel", "rms_norm_kernel"}});
  CountersInput counters;
  counters.requested = true;
  counters.errors.push_back("counters/: no counter CSVs (*counter_collection.csv) in this folder");
  CounterFile good;
  good.display = "a_counter_collection.csv";
  good.format_detail = "rocprofv3 counter_collection, 19 columns";
  good.rows_used = 6;
  good.lines = 7;
  good.bad_rows = 1;
  good.bad_row_lines = {8};
  good.kernels = {
      counted("fused_moe_kernel", 600000, 80000, 2, 99000),
      counted("kernel_paged_attention_2d [clone .kd]", 190000, 10, 1, 140000),
      counted("void at::vectorized_elementwise_kernel<4, FillFunctor<float>>(int)", 1, 1, 5, 2000)};
  CounterFile empty;
  empty.display = "b_counter_collection.csv";
  empty.errors.push_back("b_counter_collection.csv: empty file");
  counters.files = {good, empty};

  const EvidenceSummary ev = gather_evidence(head, ShapesInput{}, counters);
  REQUIRE(head.size() == 3);
  REQUIRE(head[0].evidence.measured);
  CHECK(head[0].evidence.measured->bytes.value() == rel((600000.0 + 80000.0) * 1024.0));
  CHECK(head[0].evidence.measured->time_us.value() == rel(99.0));
  CHECK(head[0].evidence.measured_source == "counters of 'fused_moe_kernel' (exact match)");
  REQUIRE(head[1].evidence.measured);
  CHECK(contains(head[1].evidence.measured_source, "(normalized match)"));
  CHECK_FALSE(head[2].evidence.measured);  // nothing in the file is an rms_norm kernel
  REQUIRE(ev.unmatched_counter_kernels.size() == 1);
  CHECK(contains(ev.unmatched_counter_kernels[0], "FillFunctor"));

  // The folder and the empty file are L4; the bad row is a warning; each is listed in the
  // report's measured inputs, in file order, and appears once among the diagnostics.
  REQUIRE(ev.findings.diagnostics.size() == 3);
  CHECK(ev.findings.diagnostics[0].level == Level::L4);
  CHECK(ev.findings.diagnostics[1].level == std::nullopt);
  CHECK(contains(ev.findings.diagnostics[1].text, "1 of 7 rows unusable"));
  CHECK(ev.findings.diagnostics[2].level == Level::L4);
  for (const auto& d : ev.findings.diagnostics) {
    CHECK(d.topic == Topic::counters);
    CHECK(d.severity == Severity::warning);
  }
  REQUIRE(ev.measured_inputs.size() == 4);
  CHECK(contains(ev.measured_inputs[1], "stage C input: a_counter_collection.csv"));
  CHECK(contains(ev.measured_inputs[2], "rows unusable"));
  CHECK(contains(ev.measured_inputs[3], "empty file"));
  CHECK(any_contains(ev.findings.notes, {"stage C input: a_counter_collection.csv"}));
  CHECK(any_contains(ev.findings.notes, {"1 counter kernel(s) match no head entry"}));
}

TEST_CASE("gather_evidence: probes of one target from several processes combine", "[evidence]") {
  std::vector<HeadEntry> head =
      head_of({{"fused_moe_kernel", "fused_moe_kernel"}, {"other_kernel", ""}});
  ShapesInput shapes;
  shapes.requested = true;
  shapes.files = {"probe_1_fused_moe_kernel.json", "probe_2_fused_moe_kernel.json"};
  shapes.errors.push_back("probe_3.json: not a probe file");
  for (const char* source : {"probe_1_fused_moe_kernel.json", "probe_2_fused_moe_kernel.json"}) {
    ProbeKernel k;
    k.target = "fused_moe_kernel";
    k.source = source;
    shapes.probes.kernels.push_back(k);
  }
  const EvidenceSummary ev = gather_evidence(head, shapes, CountersInput{});
  CHECK(head[0].evidence.probes.size() == 2);
  CHECK(head[0].evidence.probe_match == MatchKind::exact);
  CHECK(head[1].evidence.probes.empty());
  REQUIRE(ev.findings.diagnostics.size() == 1);
  CHECK(ev.findings.diagnostics[0].severity ==
        Severity::error);  // a broken probe file is a skill error
  CHECK(ev.measured_inputs ==
        std::vector<std::string>{"stage B input: 2 probe file(s), 2 probe kernel(s); 1 of 2 head "
                                 "entries matched"});
}

TEST_CASE("gather_evidence: nothing requested, nothing matched, nothing said", "[evidence]") {
  std::vector<HeadEntry> head = head_of({{"fused_moe_kernel", ""}});
  const EvidenceSummary ev = gather_evidence(head, ShapesInput{}, CountersInput{});
  REQUIRE(head.size() == 1);
  CHECK_FALSE(head[0].evidence.measured);
  CHECK(ev.findings.diagnostics.empty());
  CHECK(ev.measured_inputs.empty());
  CHECK(ev.findings.notes.empty());
}

TEST_CASE(
    "apply_measurement: measured bytes per dispatch × the unit's launches become the "
    "chosen candidate",
    "[evidence][measured]") {
  WorkEstimate w = work_of(6.97e8, 3.2e9, 2 * 0.049471);
  w.unit_launches = 2;
  w.candidates = {{"experts_hit", 6.97e8, 3.2e9, true, true, CandidateKind::experts_hit},
                  {"all experts", 8.06e8, 3.2e9, false, false, CandidateKind::all_experts}};
  KernelMeasurement m;
  m.bytes = 3.5e8;  // per dispatch
  m.flops = 1.7e9;
  m.time_us = 49.5;
  m.dispatches = 4;
  m.bytes_source = "(FETCH_SIZE + WRITE_SIZE) x 1024";
  apply_measurement(w, m, "counters of 'fused_moe_kernel' (exact match)", gfx950_peaks());
  REQUIRE(w.candidates.size() == 3);  // the model's stay for comparison
  CHECK(w.chosen == 2);
  CHECK(w.candidates[2].kind == CandidateKind::measured);
  CHECK(w.bytes == rel(7.0e8));
  CHECK(w.flops == rel(3.4e9));
  CHECK(w.t_unit_ms == rel(2 * 0.0495));
  // Feasibility against the counters' own time: 8 TB/s × 99 µs = 792 MB.
  CHECK(w.candidates[0].feasible == true);
  CHECK(w.candidates[1].feasible == false);
  CHECK(w.any_feasible);
  CHECK(any_contains(w.notes, {"measured/model = 1.004"}));
  CHECK(any_contains(w.notes, {"profile said 0.098942 ms"}));
  // measured_vs_model: per unit, 2 × 3.5e8 over the chosen model's 6.97e8; 2 × 1.7e9 over 3.2e9.
  REQUIRE(w.measured_vs_model);
  CHECK(*w.measured_vs_model->bytes == rel(7.0e8 / 6.97e8));
  CHECK(*w.measured_vs_model->flops == rel(3.4e9 / 3.2e9));
  CHECK(w.measured_vs_model->model_bytes == rel(6.97e8));
  CHECK(w.measured_vs_model->measured_bytes == rel(7.0e8));
}

TEST_CASE("apply_measurement: without FLOP counters or timestamps the model's stay", "[evidence]") {
  WorkEstimate w = work_of(2.0e8, 5.0e9, 0.1412);
  KernelMeasurement m;
  m.bytes = 1.9e8;
  m.dispatches = 3;
  apply_measurement(w, m, "counters of 'k' (exact match)", gfx950_peaks());
  CHECK(w.bytes == rel(1.9e8));
  CHECK(w.flops == rel(5.0e9));
  CHECK(w.t_unit_ms == rel(0.1412));
  CHECK(any_contains(w.notes, {"no FLOP counters (FLOPs stay the model's)"}));
  CHECK(any_contains(w.notes, {"not timed (time stays the profile's)"}));
  REQUIRE(w.measured_vs_model);
  CHECK(*w.measured_vs_model->bytes == rel(0.95));
  CHECK_FALSE(w.measured_vs_model->flops);  // no FLOP counters: nothing to compare
  CHECK_FALSE(w.measured_vs_model->measured_flops);
  CHECK_FALSE(w.measured_vs_model->timed);
}

TEST_CASE("compare_to_model: a ratio needs a figure on both sides", "[evidence][measured]") {
  KernelMeasurement m;
  m.bytes = 1.0e6;
  m.flops = 4.0e6;
  const MeasuredVsModel r = compare_to_model(2.0e6, 0.0, false, m, 2.0);
  CHECK(*r.bytes == rel(1.0));  // 2 launches × 1e6 over 2e6
  CHECK_FALSE(r.flops);         // the model counts no FLOPs
  CHECK(*r.measured_flops == rel(8.0e6));
  CHECK_FALSE(compare_to_model(0.0, 1.0e6, false, m, 1.0).bytes);   // no modelled bytes
  CHECK_FALSE(compare_to_model(2.0e6, 1.0e6, true, m, 1.0).bytes);  // link bytes: not DRAM bytes
  CHECK(*compare_to_model(2.0e6, 1.0e6, true, m, 1.0).flops == rel(4.0));
}

TEST_CASE("apply_measurement: a collective keeps its link bytes and takes the counters' time",
          "[evidence][measured]") {
  WorkEstimate w = work_of(1.5e6, 0.0, 0.0188);
  w.comm = CommFacts{"all_reduce", "two-shot", 786432.0, 8, 1, 1.5e6};
  KernelMeasurement m;
  m.bytes = 9.0e6;  // the DRAM traffic of the collective, not what crossed the link
  m.time_us = 20.0;
  m.dispatches = 1;
  m.bytes_source = "dram__bytes_read.sum + dram__bytes_write.sum";
  apply_measurement(w, m, "counters of 'cross_device_reduce_2stage' (exact match)", gfx950_peaks());
  CHECK(w.bytes == rel(1.5e6));  // the link model stays the judged figure
  CHECK(w.candidates.size() == 1);
  CHECK(w.t_unit_ms == rel(0.02));
  REQUIRE(w.measured_vs_model);
  CHECK_FALSE(w.measured_vs_model->bytes);
  CHECK(w.measured_vs_model->measured_bytes == rel(9.0e6));
  CHECK(w.measured_vs_model->timed);
  CHECK(any_contains(w.notes, {"are not link bytes", "judged at the counters' time"}));
}

TEST_CASE("deepen: stage C over a model, and over no model (the measurement stands)",
          "[evidence]") {
  ModelCase mc;
  mc.entry.name = "rms_norm_kernel";
  mc.entry.shapes = {{64, 2048}, {2048}};
  mc.cls.op_class = OpClass::elementwise;
  mc.cls.detail = detail_of(OpClass::elementwise, "norm");
  mc.regime.t_ms = 0.004;
  const ModelContext ctx{&mc.env, &mc.config, "", &mc.peaks};
  EntryEvidence ev;
  KernelMeasurement m;
  m.bytes = 600000.0;
  m.dispatches = 2;
  ev.measured = m;
  ev.measured_source = "counters of 'rms_norm_kernel' (exact match)";
  const Deepened d =
      deepen(model_work(mc.entry, mc.regime, mc.cls, ctx), ev, mc.entry, mc.regime, mc.cls, ctx);
  CHECK(d.stage == EvidenceLevel::C);
  CHECK(d.work.bytes == rel(600000.0));

  // docs/method.md §11.4: no model of the op, yet the counters measured it: judged on them.
  Classification unknown;
  EntryEvidence with_flops = ev;
  with_flops.measured->flops = 1.2e6;
  const Deepened u = deepen(model_work(mc.entry, mc.regime, unknown, ctx), with_flops, mc.entry,
                            mc.regime, unknown, ctx);
  CHECK(u.stage == EvidenceLevel::C);
  CHECK(u.work.modeled);
  CHECK(u.work.bytes == rel(600000.0));
  CHECK(u.work.t_unit_ms == rel(0.004));  // not timed: the profile's time
  CHECK(u.work.unit_launches == 1.0);
  REQUIRE_FALSE(u.work.candidates.empty());
  CHECK(u.work.candidates[u.work.chosen].kind == CandidateKind::measured);
  CHECK(any_contains(u.work.notes, {"judged on the measurement alone", "op class unknown",
                                    "600.00 kB per dispatch"}));
  // Without FLOPs a kernel whose roof may be its math gets no verdict; a gemv or an elementwise
  // one is memory-bound by construction and is judged.
  const Deepened no_flops =
      deepen(model_work(mc.entry, mc.regime, unknown, ctx), ev, mc.entry, mc.regime, unknown, ctx);
  CHECK(no_flops.stage == EvidenceLevel::C);
  CHECK_FALSE(no_flops.work.modeled);
  CHECK_THAT(no_flops.work.unmodeled_reason, Catch::Contains("no FLOPs"));
  TopnEntry gemv = mc.entry;
  gemv.name = "internal::gemvx::kernel<int, int, __nv_bfloat16>";
  Classification gemm;
  gemm.op_class = OpClass::gemm;
  const Deepened g =
      deepen(model_work(gemv, mc.regime, unknown, ctx), ev, gemv, mc.regime, gemm, ctx);
  CHECK(g.work.modeled);
  CHECK(g.work.flops_unknown);

  // A collective is judged on link bytes the DRAM counters do not see: still no verdict.
  Classification comm;
  comm.op_class = OpClass::comm;
  const Deepened c =
      deepen(model_work(mc.entry, mc.regime, unknown, ctx), ev, mc.entry, mc.regime, comm, ctx);
  CHECK(c.stage == EvidenceLevel::A);
  CHECK_FALSE(c.work.modeled);
  CHECK(any_contains(c.notes, {"measured but not modelled", "600000 B per dispatch"}));

  EntryEvidence no_bytes;
  no_bytes.measured = KernelMeasurement{};
  no_bytes.measured->unusable_reason = "no WRITE_SIZE counter";
  no_bytes.measured_source = "counters of 'rms_norm_kernel' (exact match)";
  const Deepened n = deepen(model_work(mc.entry, mc.regime, mc.cls, ctx), no_bytes, mc.entry,
                            mc.regime, mc.cls, ctx);
  CHECK(n.stage == EvidenceLevel::A);
  CHECK(any_contains(n.notes, {"stage C not reached", "no WRITE_SIZE counter"}));
}

// The regression of issue 35: a GEMM kernel serving two projections, its Top-N signatures without
// counts (no mean stands for the entry), measured by Nsight Compute: the counters judge it, at the
// operand type of the tensor path they counted.
TEST_CASE("deepen: stage C over an ambiguous model", "[evidence]") {
  ModelCase mc;
  mc.entry.name = "nvjet_sm90_qqtst_128x64_64x4_1x2_h_bz_coopA_TNT";
  mc.entry.op = "aten::mm";
  mc.entry.signatures = {{{64, 2048}, {2048, 5120}}, {{64, 2048}, {2048, 128}}};
  mc.entry.shapes = mc.entry.signatures.front();
  mc.entry.dtypes = {"c10::BFloat16"};
  mc.entry.dtypes_are_set = true;
  mc.entry.avg_us = 9.0;
  mc.cls.op_class = OpClass::gemm;
  mc.regime.t_ms = 0.009;
  mc.regime.known = true;
  const ModelContext ctx{&mc.env, &mc.config, "", &mc.peaks};
  const WorkEstimate model = model_work(mc.entry, mc.regime, mc.cls, ctx,
                                        signature_cases(mc.entry, mc.cls.op_class, &mc.config));
  REQUIRE_FALSE(model.modeled);
  CHECK_THAT(model.unmodeled_reason, Catch::Contains("carry no counts"));
  EntryEvidence ev;
  KernelMeasurement m;
  m.bytes = 1.2e7;
  m.flops = 8.0e8;
  m.flops_dtype = "fp8";
  m.time_us = 7.5;
  m.dispatches = 4;
  m.bytes_source = "dram__bytes_read.sum + dram__bytes_write.sum";
  m.flops_source = "sm__ops_path_tensor_src_fp8_dst_fp32.sum (tensor ops)";
  m.time_source = "gpu__time_duration.sum";
  ev.measured = m;
  ev.measured_source = "ncu.csv";
  const Deepened d = deepen(model, ev, mc.entry, mc.regime, mc.cls, ctx);
  CHECK(d.stage == EvidenceLevel::C);
  REQUIRE(d.work.modeled);
  CHECK(d.work.bytes == rel(1.2e7));
  CHECK(d.work.flops == rel(8.0e8));
  CHECK(d.work.t_unit_ms == rel(0.0075));  // the counters timed it
  CHECK(d.work.compute_dtype.key == DtypeKey::fp8);
  CHECK(d.work.signatures.size() == 2);  // still shown
  CHECK(any_contains(d.work.notes, {"judged on the measurement alone", "carry no counts",
                                    "compute at fp8 (the tensor path the counters name)"}));
  const Verdict v = judge(d.work, OpClass::gemm, 10.0, mc.peaks, VerdictParams{});
  CHECK(v.roofline_pct_raw);  // 7.5 µs: dispatch-bound, so no place on the roof
  CHECK(v.dispatch_bound);
  CHECK_FALSE(v.roofline_pct);
}

TEST_CASE("deepen: a matched probe without cases keeps stage A and says why", "[evidence]") {
  ModelCase mc;
  mc.entry.name = "fused_moe_kernel";
  mc.cls.op_class = OpClass::elementwise;
  mc.regime.t_ms = 0.05;
  mc.entry.shapes = {{64, 2048}};
  const ModelContext ctx{&mc.env, &mc.config, "", &mc.peaks};
  ProbeKernel empty;
  empty.target = "fused_moe_kernel";
  empty.source = "probe_1.json";
  EntryEvidence ev;
  ev.probes = {&empty};
  ev.probe_match = MatchKind::exact;
  const Deepened d =
      deepen(model_work(mc.entry, mc.regime, mc.cls, ctx), ev, mc.entry, mc.regime, mc.cls, ctx);
  CHECK(d.stage == EvidenceLevel::A);
  CHECK(d.work.modeled);  // the stage-A model is kept
  CHECK(any_contains(d.notes, {"stage B not reached", "(exact match)", "no usable cases"}));
}

// docs/method.md §8.2: profile_workload.json's cases are folded count-weighted, each at its own
// latency, and the entry stays at stage A (the profiler's counts, not a new capture).
TEST_CASE("deepen: workload cases fold count-weighted at their latencies; stage stays A",
          "[evidence][workload]") {
  ModelCase mc;
  mc.entry.name = "rms_norm_kernel";
  mc.entry.shapes = {{64, 2048}, {2048}};
  mc.entry.dtypes = {"c10::BFloat16", "c10::BFloat16"};
  mc.cls.op_class = OpClass::elementwise;
  mc.cls.detail = detail_of(OpClass::elementwise, "norm");
  mc.regime.regime = Regime::decode;
  mc.regime.t_ms = 0.004;
  const ModelContext ctx{&mc.env, &mc.config, "", &mc.peaks};
  // Norm: reads x and the weight, writes x: 64 rows → 2·64·2048·2 + 2048·2 = 528,384 B;
  // 192 rows → 2·192·2048·2 + 4096 = 1,576,960 B.
  const auto text = R"({"schema": "workload-v1", "source": "torch-trace", "kernels": [
    {"rank": 1, "name": "rms_norm_kernel", "short_name": "rms_norm_kernel", "calls": 40,
     "calls_without_shapes": 0, "cases": [
       {"dims": [[64, 2048], [2048]], "dtypes": ["c10::BFloat16", "c10::BFloat16"],
        "count": 30, "baseline_latency_ms": 0.003, "regime": "decode"},
       {"dims": [[192, 2048], [2048]], "dtypes": ["c10::BFloat16", "c10::BFloat16"],
        "count": 10, "baseline_latency_ms": 0.006, "regime": "decode"},
       {"dims": [[4096, 2048], [2048]], "dtypes": ["c10::BFloat16", "c10::BFloat16"],
        "count": 5, "baseline_latency_ms": 0.05, "regime": "prefill"}]}]})";
  const Loaded<ProbeSet> w = parse_workload(text, "profile_workload.json");
  REQUIRE(w.errors.empty());
  REQUIRE(w.value);
  REQUIRE(w.value->kernels.size() == 1);
  const ProbeKernel& k = w.value->kernels[0];
  REQUIRE(k.cases.size() == 3);
  CHECK(k.cases[0].gpu_us_avg == rel(3.0));
  CHECK(k.cases[2].regime == Regime::prefill);

  // Matched by name beside the other evidence.
  std::vector<HeadEntry> head = head_of({{"rms_norm_kernel", "rms_norm_kernel"}});
  const EvidenceSummary ev = gather_evidence(head, ShapesInput{}, CountersInput{}, &*w.value);
  REQUIRE(head[0].evidence.workload == &k);

  const Deepened d = deepen(model_work(mc.entry, mc.regime, mc.cls, ctx), head[0].evidence,
                            mc.entry, mc.regime, mc.cls, ctx);
  CHECK(d.stage == EvidenceLevel::A);
  REQUIRE(d.work.modeled);
  // The decode cases only: (30·528,384 + 10·1,576,960) / 40 and (30·3 + 10·6) / 40 µs.
  CHECK(d.work.bytes == rel((30 * 528384.0 + 10 * 1576960.0) / 40));
  CHECK(d.work.t_unit_ms == rel((30 * 0.003 + 10 * 0.006) / 40));
  CHECK(any_contains(d.notes, {"profile_workload.json: 2 case(s)",
                               "1 case(s) of the other regime "
                               "left out"}));
  CHECK(any_contains(d.work.notes, {"profile_workload.json: 2 of 2 workload cases"}));
}

TEST_CASE("parse_workload: broken kernels and cases are reported and skipped", "[workload]") {
  const auto text = R"({"schema": "workload-v2", "kernels": [
    {"cases": []},
    {"name": "k", "cases": [{"dims": [], "count": 1},
                            {"dims": [[8]], "count": 1, "baseline_latency_ms": -1,
                             "regime": "both"}]},
    7]})";
  const Loaded<ProbeSet> w = parse_workload(text, "profile_workload.json");
  REQUIRE(w.value);
  REQUIRE(w.value->kernels.size() == 1);
  REQUIRE(w.value->kernels[0].cases.size() == 1);
  CHECK_FALSE(w.value->kernels[0].cases[0].gpu_us_avg);
  CHECK_FALSE(w.value->kernels[0].cases[0].regime);
  CHECK(any_contains(w.notes, {"schema 'workload-v2'"}));
  CHECK(any_contains(w.errors, {"kernels[0].name", "missing"}));
  CHECK(any_contains(w.errors, {"kernels[1].cases[0].dims"}));
  CHECK(any_contains(w.errors, {"baseline_latency_ms", "positive time"}));
  CHECK(any_contains(w.errors, {"'both' is not a regime"}));
  CHECK(any_contains(w.errors, {"kernels[2]", "expected an object"}));

  const Loaded<ProbeSet> not_one = parse_workload(R"({"cases": []})", "w.json");
  CHECK_FALSE(not_one.value);
  CHECK(any_contains(not_one.errors, {"not a workload file"}));
}

}  // namespace unit_evidence
