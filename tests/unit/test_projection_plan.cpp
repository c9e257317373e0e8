// The linear plan and the assignment of shapeless GEMM kernels (docs/method.md, kernels without
// shapes), on the real configs and kernel times of the two serving fixtures.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/layer_place.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/analyze/models/projection_plan.hpp"
#include "roofline/analyze/steps/classify_head.hpp"
#include "roofline/analyze/steps/plan_shapeless_gemms.hpp"
#include "roofline/analyze/steps/rank_entries.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/analyze/steps/scope_to_head.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_projection_plan {
using namespace roofline::cli;
using roofline::test::contains;
using roofline::test::rel;

namespace {

ModelConfig zoo_config(const char* file) {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/golden/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  auto cfg = parse_model_config(ss.str(), file);
  REQUIRE(cfg.value);
  return *cfg.value;
}

ModelConfig qwen3_8b() {
  ModelConfig c;
  c.hidden = 4096;
  c.intermediate = 12288;
  c.n_heads = 32;
  c.n_kv_heads = 8;
  c.head_dim = 128;
  c.layers = 36;
  c.vocab = 151936;
  c.hidden_act = "silu";
  return c;
}

const Projection* find(const PlanVariant& v, ProjectionKind k) {
  for (const Projection& p : v.projections)
    if (p.kind == k) return &p;
  return nullptr;
}

PlanKernel kernel(const char* name, double lps, double us, std::string module = {}) {
  return PlanKernel{name, lps, us / 1000.0, std::move(module)};
}

// MI300X, bf16, decode batch 32 (the SGLang fixture's step).
PlanStep decode_32() {
  PlanStep s;
  s.rows = 32;
  s.requests = 32;
  s.act_bytes = 2;
  s.weight_bytes = 2;
  s.peak_bw_bytes_s = 5.3e12;
  return s;
}

}  // namespace

TEST_CASE("linear_plan: Qwen3-8B at TP 1 and TP 2", "[linear_plan]") {
  const ProjectionPlan plan = projection_plan(qwen3_8b(), 1.0);
  REQUIRE(plan.missing.empty());
  REQUIRE(plan.variants.size() == 4);  // fused/split qkv × fused/split gate_up
  const PlanVariant& fused = plan.variants.front();
  CHECK(fused.name == "fused qkv, fused gate_up");
  const Projection* qkv = find(fused, ProjectionKind::qkv);
  REQUIRE(qkv);
  CHECK(qkv->n == 6144);  // (32 + 2·8)·128
  CHECK(qkv->k == 4096);
  CHECK(qkv->per_step == 36);
  CHECK(find(fused, ProjectionKind::o)->k == 4096);
  CHECK(find(fused, ProjectionKind::gate_up)->n == 24576);
  CHECK(find(fused, ProjectionKind::down)->k == 12288);
  const Projection* head = find(fused, ProjectionKind::lm_head);
  REQUIRE(head);
  CHECK(head->n == 151936);
  CHECK(head->per_step == 1);
  CHECK(head->rows_are_requests);
  // The README's bytes: gate_up at M = 32, bf16: 203.16 MB; qkv 50.99 MB.
  CHECK(projection_bytes(*find(fused, ProjectionKind::gate_up), 32, 2, 2) == rel(203161600.0));
  CHECK(projection_flops(*find(fused, ProjectionKind::gate_up), 32) == rel(6442450944.0));
  CHECK(projection_bytes(*qkv, 32, 2, 2) == rel(50987008.0));

  const ProjectionPlan tp2 = projection_plan(qwen3_8b(), 2.0);
  const PlanVariant& f2 = tp2.variants.front();
  CHECK(find(f2, ProjectionKind::qkv)->n == 3072);  // (16 + 2·4)·128
  CHECK(find(f2, ProjectionKind::o)->k == 2048);    // row-parallel
  CHECK(find(f2, ProjectionKind::down)->k == 6144);
  CHECK(find(f2, ProjectionKind::lm_head)->n == 75968);           // vocab-parallel
  const ProjectionPlan tp16 = projection_plan(qwen3_8b(), 16.0);  // KV heads floor at one per rank
  CHECK(find(tp16.variants.front(), ProjectionKind::qkv)->n == (2.0 + 2.0) * 128);
}

TEST_CASE("assign_projections: the SGLang decode's four GEMMs jointly", "[linear_plan]") {
  // The fixture's Tensile kernels, 36 launches each, and the lm_head (1 launch).
  const std::vector<PlanKernel> kernels{
      kernel("Cijk_MT256x32x64", 36, 67.16), kernel("Cijk_MT32x32x256", 36, 40.61),
      kernel("Cijk_MT64x32x256", 36, 25.10), kernel("Cijk_MT16x32x512", 36, 16.73),
      kernel("Cijk_MT256x48x64", 1, 396.83)};
  const auto a = assign_projections(kernels, projection_plan(qwen3_8b(), 1.0), decode_32());
  REQUIRE(a.size() == 5);
  const ProjectionKind want[] = {ProjectionKind::gate_up, ProjectionKind::down, ProjectionKind::qkv,
                                 ProjectionKind::o, ProjectionKind::lm_head};
  for (std::size_t i = 0; i < 5; ++i) {
    INFO(kernels[i].name << ": " << a[i].problem);
    REQUIRE(a[i].projection);
    CHECK(a[i].projection->kind == want[i]);
    CHECK(a[i].m == 32);
  }
  CHECK(contains(a[0].how, "jointly"));
  CHECK(contains(a[0].how, "fused qkv, fused gate_up"));
  CHECK(contains(a[4].how, "by launches per step"));
}

TEST_CASE("launch geometry: the tile a kernel name states", "[linear_plan][geometry]") {
  const auto tile = [](const char* name) { return gemm_tile(name); };
  // CUTLASS 3: the cluster shape comes first in the same form and is not the tile.
  const auto c3 = tile(
      "cutlass::device_kernel<vllm::enable_sm120_only<cutlass::gemm::kernel::GemmUniversal<"
      "cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::"
      "MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<1>, cute::C<2>, cute::C<1> > >, "
      "cute::tuple<cute::C<64>, cute::C<64>, cute::C<128> >, cutlass::float_e4m3_t> > > >");
  REQUIRE(c3);
  CHECK((c3->m == 64 && c3->n == 64 && c3->k == 128));
  const auto nvfp4 = tile("GemmUniversal<…, cute::Shape<cute::_128, cute::_128, cute::_256>, …>");
  REQUIRE(nvfp4);
  CHECK((nvfp4->m == 128 && nvfp4->n == 128 && nvfp4->k == 256));
  const auto c2 = tile("cutlass::Kernel<MoeFCGemm<MmaMultistage<GemmShape<32, 128, 64>, …>>>");
  REQUIRE(c2);
  CHECK((c2->m == 32 && c2->n == 128));
  const auto mangled = tile(
      "_ZN7cutlass6KernelINS_4gemm6kernel9MoeFCGemmINS1_11threadblock13Mma"
      "MultistageINS1_9GemmShapeILi32ELi128ELi64EEE");
  REQUIRE(mangled);
  CHECK((mangled->m == 32 && mangled->n == 128 && mangled->k == 64));
  const auto cublas = tile(
      "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_"
      "align8>(T1::Params)");
  REQUIRE(cublas);
  CHECK((cublas->m == 16 && cublas->n == 16 && cublas->k == 128));
  // cuBLASLt nvjet (M×N, K×stages) and Tensile (MT0×MT1×DepthU) state theirs too.
  const auto nvjet = tile("nvjet_sm90_tst_128x8_64x12_2x1_v_bz_TNT");
  REQUIRE(nvjet);
  CHECK((nvjet->m == 128 && nvjet->n == 8 && nvjet->k == 64));
  const auto tensile = tile("Cijk_Alik_Bljk_BBS_BH_MT64x16x64_MI16x16x16x1");
  REQUIRE(tensile);
  CHECK((tensile->m == 64 && tensile->n == 16 && tensile->k == 64));
  CHECK_FALSE(tile("void at::native::vectorized_elementwise_kernel<4>"));
}

TEST_CASE("launch geometry: a projection held against the grid", "[linear_plan][geometry]") {
  GemmTile t64;
  t64.m = t64.n = 64;
  t64.k = 128;
  std::string why;
  // The RTX PRO 6000 fp8 decode: grids [1,96,1] and [1,32,1] over a 64 tile are qkv and o_proj.
  CHECK(grid_fits(t64, {1, 96, 1}, 6144, 16, 188, why) == std::optional<bool>(true));
  CHECK(contains(why, "ceil(N 6144 / 64)"));
  CHECK(grid_fits(t64, {1, 96, 1}, 2048, 16, 188, why) == std::optional<bool>(false));
  CHECK(grid_fits(t64, {1, 32, 1}, 2048, 16, 188, why) == std::optional<bool>(true));
  // A swizzled 2-D grid: 8·48 = 384 tiles of 16 columns (the OLMoE qkv, N 6144, one row).
  GemmTile t16;
  t16.m = t16.n = 16;
  t16.k = 128;
  CHECK(grid_fits(t16, {8, 48, 1}, 6144, 1, 188, why) == std::optional<bool>(true));
  CHECK(grid_fits(t16, {8, 48, 1}, 2048, 1, 188, why) == std::optional<bool>(false));
  // A one-row grid is exact: 272 tiles of 128 are N in (34688, 34816], not 271 tiles.
  GemmTile t128;
  t128.m = t128.n = 128;
  t128.k = 256;
  CHECK(grid_fits(t128, {1, 272, 1}, 34816, 1, 48, why) == std::optional<bool>(true));
  CHECK(grid_fits(t128, {1, 272, 1}, 34688, 1, 48, why) == std::optional<bool>(false));
  // A persistent grid (the GB10's 48 SMs, twice) says nothing.
  CHECK_FALSE(grid_fits(t128, {48, 1, 2}, 34816, 1, 48, why));
  CHECK(contains(why, "persistent"));
  CHECK_FALSE(grid_fits(t128, {}, 34816, 1, 48, why));
}

KernelGeometry geo(std::vector<std::int64_t> grid, std::optional<GemmTile> tile,
                   std::optional<std::set<ProjectionKind>> place = std::nullopt) {
  KernelGeometry g;
  g.grid = std::move(grid);
  g.tile = std::move(tile);
  g.place = std::move(place);
  if (g.place) g.place_why = "recorded neighbours";
  return g;
}

// A neighbour as profile_workload.json records it.
CaseNeighbour neighbour(std::string kernel, std::string cls, std::optional<double> rows = {}) {
  CaseNeighbour n;
  n.kernel = std::move(kernel);
  n.cls = std::move(cls);
  n.rows = rows;
  return n;
}

TEST_CASE("layer_place: the kernels beside a GEMM say where in the layer it ran",
          "[linear_plan][place]") {
  using K = ProjectionKind;
  // A decode layer of vLLM under CUDA graphs (the fp8 fixture's stream order): fused_add_rms_norm
  // → qkv → flash attention → o_proj → fused_add_rms_norm → gate_up → act_and_mul → down.
  const CaseNeighbour norm =
      neighbour("fused_add_rms_norm_kernel", "elementwise:add_norm+rows", 16);
  const CaseNeighbour attn = neighbour("flash_fwd_splitkv_kernel", "attn:auto");
  const CaseNeighbour act = neighbour("act_and_mul_kernel", "elementwise:act_and_mul+rows", 16);
  auto qkv = layer_place(&norm, &attn);
  REQUIRE(qkv);
  CHECK(qkv->allowed.count(K::qkv));
  CHECK_FALSE(qkv->allowed.count(K::gate_up));
  CHECK_FALSE(qkv->allowed.count(K::o));
  CHECK(contains(qkv->why, "after fused_add_rms_norm_kernel"));
  auto o = layer_place(&attn, &norm);
  REQUIRE(o);
  CHECK(o->allowed == std::set<K>{K::o});
  auto gate_up = layer_place(&norm, &act);
  REQUIRE(gate_up);
  CHECK(gate_up->allowed.count(K::gate_up));
  CHECK_FALSE(gate_up->allowed.count(K::qkv));
  auto down = layer_place(&act, &norm);
  REQUIRE(down);
  CHECK(down->allowed == std::set<K>{K::down, K::shared_down});
  // A softmax after it: the router's top-k, or the sampler's after lm_head.
  const CaseNeighbour softmax = neighbour("softmax_warp_forward", "elementwise:softmax");
  auto head = layer_place(&norm, &softmax);
  REQUIRE(head);
  CHECK(head->allowed == std::set<K>{K::router, K::lm_head});
  // Another GEMM or a kernel of no known role marks no place.
  const CaseNeighbour gemm = neighbour("nvjet_tst_64x8", "gemm");
  CHECK_FALSE(layer_place(&gemm, &gemm));
  CHECK_FALSE(layer_place(nullptr, nullptr));
  // Rows: a norm before it that launches one block per row, or an activation after it.
  std::string why;
  const auto exact = [](const std::optional<NeighbourRows>& r, double rows) {
    return r && r->lo == rows && r->hi == rows;
  };
  CHECK(exact(neighbour_rows(&norm, &attn, why), 16));
  CHECK(contains(why, "grid.x of fused_add_rms_norm_kernel before it"));
  const CaseNeighbour inductor = neighbour("triton_red_fused_add_rms_norm_0", "elementwise:norm");
  CHECK_FALSE(neighbour_rows(&inductor, &gemm, why));  // no +rows: its grid says nothing
  CHECK(exact(neighbour_rows(&inductor, &act, why), 16));
  // A CK tile norm of four rows a block at grid 14 322: its rows are 57 285 to 57 288.
  CaseNeighbour ck = neighbour("Rmsnorm2dFwd", "elementwise:norm");
  ck.rows = 57288;
  ck.rows_per_block = 4;
  const auto r = neighbour_rows(&ck, nullptr, why);
  REQUIRE(r);
  CHECK((r->lo == 57285 && r->hi == 57288));
  CHECK(contains(why, "4 rows a block"));
}

TEST_CASE("assign_projections: the place in the layer decides where grids are persistent",
          "[linear_plan][place]") {
  using K = ProjectionKind;
  // Four kernels of 36 launches a step, persistent grids (132 SMs), times tied within 5 %: only
  // their places tell them apart.
  const std::vector<PlanKernel> kernels{kernel("a", 36, 20.0), kernel("b", 36, 20.5),
                                        kernel("c", 36, 20.2), kernel("d", 36, 20.3)};
  GemmTile t128;
  t128.m = t128.n = 128;
  t128.k = 64;
  const std::set<K> after_norm_before_attn{K::qkv, K::q, K::k, K::v};
  const std::vector<KernelGeometry> geometry{
      geo({132, 1, 1}, t128, after_norm_before_attn), geo({132, 1, 1}, t128, std::set<K>{K::o}),
      geo({132, 1, 1}, t128, std::set<K>{K::gate_up, K::gate, K::up}),
      geo({132, 1, 1}, t128, std::set<K>{K::down, K::shared_down})};
  PlanStep step = decode_32();
  step.sm_count = 132;
  const auto a = assign_projections(kernels, projection_plan(qwen3_8b(), 1.0), step, geometry);
  const K want[] = {K::qkv, K::o, K::gate_up, K::down};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO(a[i].problem);
    REQUIRE(a[i].projection);
    CHECK(a[i].projection->kind == want[i]);
    CHECK(contains(a[i].how, "its place in the layer"));
    CHECK(contains(a[i].how, "persistent") == false);
  }
  // A place that refutes what the times pair: the joint rule pairs the slowest kernel with
  // gate_up (the most bytes), but it runs where only down or qkv can: no assignment at all.
  const std::vector<PlanKernel> timed{kernel("a", 36, 10.0), kernel("b", 36, 20.0),
                                      kernel("c", 36, 30.0), kernel("d", 36, 67.0)};
  const std::vector<KernelGeometry> two{geo({}, std::nullopt), geo({}, std::nullopt),
                                        geo({}, std::nullopt),
                                        geo({}, std::nullopt, std::set<K>{K::down, K::qkv})};
  const ProjectionPlan plan = projection_plan(qwen3_8b(), 1.0);
  const auto joint = assign_projections(timed, plan, decode_32());
  REQUIRE(joint[3].projection);
  CHECK(joint[3].projection->kind == K::gate_up);
  for (const ProjectionAssignment& x : assign_projections(timed, plan, decode_32(), two)) {
    INFO(x.problem);
    CHECK_FALSE(x.projection);
    CHECK(contains(x.problem, "contradicted by its place in the layer"));
  }
}

TEST_CASE("assign_projections: the launch geometry first, and a grid that contradicts a pairing",
          "[linear_plan][geometry]") {
  // qkv and o, both launched 36 times a step, at times the joint rule would pair the other way.
  const std::vector<PlanKernel> kernels{kernel("scaled_mm grid 96", 36, 10.0),
                                        kernel("scaled_mm grid 64", 36, 20.0)};
  GemmTile t64;
  t64.m = t64.n = 64;
  t64.k = 128;
  const std::vector<KernelGeometry> geometry{geo({1, 96, 1}, t64), geo({1, 64, 1}, t64)};
  const ProjectionPlan plan = projection_plan(qwen3_8b(), 1.0);
  const auto a = assign_projections(kernels, plan, decode_32(), geometry);
  REQUIRE(a[0].projection);
  CHECK(a[0].projection->kind == ProjectionKind::qkv);
  CHECK(contains(a[0].how, "by its launches: the grid (grid 1×96"));
  // o_proj and down_proj both write 4096 columns: the grid cannot tell them apart, and the
  // other rules have one kernel for three projections.
  CHECK_FALSE(a[1].projection);
  CHECK(contains(a[1].problem, "candidates"));
  // A grid that refutes what the times pair: no assignment at all.
  const auto r = assign_projections(
      {kernel("a", 36, 10.0), kernel("b", 36, 20.0), kernel("c", 36, 30.0), kernel("d", 36, 40.0)},
      plan, decode_32(), {geo({1, 7, 1}, t64)});
  for (const ProjectionAssignment& x : r) {
    INFO(x.problem);
    CHECK_FALSE(x.projection);
    CHECK(contains(x.problem, "contradicted by the launch geometry"));
  }
}

TEST_CASE("grid_rows: the rows a grid over a tile admits", "[linear_plan][geometry][band]") {
  GemmTile t64;
  t64.m = t64.n = 64;
  t64.k = 128;
  std::string why;
  // The RTX PRO 6000 fp8 decode's qkv: grid [1,96,1] over a 64 tile, N 6144 — one row tile, so
  // M is 1 to 64 (the trace's own step ran 16 rows).
  auto r = grid_rows(t64, {1, 96, 1}, 6144, 188, why);
  REQUIRE(r);
  CHECK(r->lo == 1);
  CHECK(r->hi == 64);
  CHECK(contains(why, "M is 1 to 64"));
  // The same grid as a 2048-column projection: 96 = 3 row tiles of 32, M 129 to 192.
  r = grid_rows(t64, {1, 96, 1}, 2048, 188, why);
  REQUIRE(r);
  CHECK(r->lo == 129);
  CHECK(r->hi == 192);
  // No M gives 4096 columns (64 tiles) a grid of 96 blocks; a persistent grid says nothing.
  CHECK_FALSE(grid_rows(t64, {1, 96, 1}, 4096, 188, why));
  CHECK(contains(why, "no M gives N 4096"));
  CHECK_FALSE(grid_rows(t64, {188, 1, 1}, 6144, 188, why));
  CHECK(contains(why, "persistent"));
  // A swizzled 2-D grid pads up to one row or column: 8·48 = 384 blocks of a 16 tile over 6144
  // columns (384 tiles) is one row tile, 1 to 16 rows (the OLMoE decode's qkv ran 1).
  GemmTile t16;
  t16.m = t16.n = 16;
  t16.k = 128;
  r = grid_rows(t16, {8, 48, 1}, 6144, 188, why);
  REQUIRE(r);
  CHECK(r->lo == 1);
  CHECK(r->hi == 16);
}

TEST_CASE("assign_by_grid_rows: no figure gives the rows, the grid bounds them",
          "[linear_plan][geometry][band]") {
  GemmTile t64;
  t64.m = t64.n = 64;
  t64.k = 128;
  const ProjectionPlan plan = projection_plan(qwen3_8b(), 1.0);
  PlanStep step = decode_32();
  step.rows = step.requests = 0;
  step.sm_count = 132;
  const auto a = assign_by_grid_rows(
      {kernel("lm_head gemm", 1, 300.0), kernel("scaled_mm grid 96", 36, 30.0),
       kernel("persistent", 36, 20.0)},
      plan, step, {geo({1, 2374, 1}, t64), geo({1, 96, 1}, t64), geo({132, 1, 1}, t64)});
  // lm_head, once a step: 151 936 columns are 2374 tiles of 64, so a grid of 2374 blocks is one
  // row tile — 1 to 64 requests, 64 taken.
  INFO(a[0].problem);
  REQUIRE(a[0].projection);
  CHECK(a[0].projection->kind == ProjectionKind::lm_head);
  CHECK(a[0].m == 64);
  REQUIRE(a[0].m_lo);
  CHECK(*a[0].m_lo == 1);
  CHECK(contains(a[0].how, "only lm_head fits its grid"));
  // 96 blocks, 36 a step: qkv at 1 to 64 rows, or split k_proj or v_proj (1024 columns, 16
  // tiles) at 321 to 384 — with no rows, nothing tells them apart: no assignment.
  CHECK_FALSE(a[1].projection);
  CHECK(contains(a[1].problem, "3 of its candidates fit its grid"));
  // A persistent grid bounds nothing.
  CHECK_FALSE(a[2].projection);
  CHECK(contains(a[2].problem, "persistent"));
  // The measured time cuts the top: lm_head moves 4096·151936·2 B of weights plus
  // (4096 + 151936)·2 = 312 064 B a row; a budget of 40.5 rows' worth (1 ms at this bandwidth)
  // leaves M 1 to 40.
  const double at0 = 4096.0 * 151936 * 2;
  step.peak_bw_bytes_s = (at0 + 40.5 * 312064) * 1e3;
  const auto cut = assign_by_grid_rows({kernel("lm_head gemm", 1, 1000.0)}, plan, step,
                                       {geo({1, 2374, 1}, t64)});
  REQUIRE(cut[0].projection);
  CHECK(cut[0].m == 40);
  CHECK(*cut[0].m_lo == 1);
  CHECK(contains(cut[0].how, "M ≤ 40"));
  // A time too short for even one row: no assignment, and it says why.
  step.peak_bw_bytes_s = at0 * 0.5e3;
  const auto none = assign_by_grid_rows({kernel("lm_head gemm", 1, 1000.0)}, plan, step,
                                        {geo({1, 2374, 1}, t64)});
  CHECK_FALSE(none[0].projection);
  CHECK(contains(none[0].problem, "more bytes than its measured time allows"));
}

TEST_CASE("assign_projections: ties, infeasible pairs and missing counts stay L2",
          "[linear_plan]") {
  const ProjectionPlan plan = projection_plan(qwen3_8b(), 1.0);
  // down and qkv within 5 % of each other: not decided.
  auto a = assign_projections({kernel("a", 36, 67.16), kernel("b", 36, 40.61),
                               kernel("c", 36, 39.9), kernel("d", 36, 16.73)},
                              plan, decode_32());
  for (const auto& x : a) {
    CHECK_FALSE(x.projection);
    CHECK(contains(x.problem, "same time within 5 %"));
    CHECK(contains(x.problem, "candidates: qkv"));
  }
  // gate_up's 203 MB in 30 µs is beyond 5.3 TB/s × 30 µs = 159 MB.
  a = assign_projections(
      {kernel("a", 36, 30.0), kernel("b", 36, 25.0), kernel("c", 36, 15.0), kernel("d", 36, 10.0)},
      plan, decode_32());
  CHECK_FALSE(a[0].projection);
  CHECK(contains(a[0].problem, "infeasible"));
  // Three kernels of 36 launches: no variant has three projections per layer.
  a = assign_projections({kernel("a", 36, 67.0), kernel("b", 36, 40.0), kernel("c", 36, 25.0)},
                         plan, decode_32());
  CHECK(contains(a[0].problem, "no plan variant has 3 projections"));
  // 20 launches a step match nothing; no launch count at all.
  a = assign_projections({kernel("a", 20, 67.0), PlanKernel{"b", std::nullopt, 0.04, ""}}, plan,
                         decode_32());
  CHECK(contains(a[0].problem, "match no projection count"));
  CHECK(contains(a[1].problem, "launches per step unknown"));
  // A config without hidden_size has no plan.
  ModelConfig none = qwen3_8b();
  none.hidden.reset();
  a = assign_projections({kernel("a", 36, 67.0)}, projection_plan(none, 1.0), decode_32());
  CHECK(contains(a[0].problem, "config lacks hidden_size"));
}

TEST_CASE("assign_projections: module paths decide where they say", "[linear_plan]") {
  // Same times as the fixture but shuffled: the module paths win over the time order.
  const std::vector<PlanKernel> kernels{
      kernel("x", 36, 16.73, "MergedColumnParallelLinear in Qwen2MLP"),
      kernel("y", 36, 25.10, "RowParallelLinear in Qwen2MLP"),
      kernel("z", 36, 40.61, "QKVParallelLinear in Qwen3Attention"),
      kernel("w", 36, 67.16, "RowParallelLinear in Qwen3Attention")};
  PlanStep step = decode_32();
  step.peak_bw_bytes_s.reset();  // the shuffled times would be infeasible
  const auto a = assign_projections(kernels, projection_plan(qwen3_8b(), 1.0), step);
  CHECK(a[0].projection->kind == ProjectionKind::gate_up);
  CHECK(a[1].projection->kind == ProjectionKind::down);
  CHECK(a[2].projection->kind == ProjectionKind::qkv);
  CHECK(a[3].projection->kind == ProjectionKind::o);
  CHECK(contains(a[3].how, "by module path"));
}

TEST_CASE("assign_projections: the vLLM gpt-oss prefill step by FLOPs", "[linear_plan]") {
  const ModelConfig cfg = zoo_config("zoo_gpt_oss_20b/input/config.json");
  const ProjectionPlan plan = projection_plan(cfg, 1.0);
  REQUIRE(!plan.variants.empty());
  const Projection* qkv = find(plan.variants.front(), ProjectionKind::qkv);
  REQUIRE(qkv);
  CHECK(qkv->n == 5120);  // (64 + 2·8)·64
  CHECK(qkv->k == 2880);
  CHECK(find(plan.variants.front(), ProjectionKind::router)->n == 32);
  CHECK_FALSE(find(plan.variants.front(), ProjectionKind::gate_up));  // every layer is MoE
  PlanStep step;
  step.rows = 8192;  // the mixed step's tokens (prefill + decode rows)
  step.requests = 46;
  step.prefill = true;
  step.peak_bw_bytes_s = 5.3e12;
  const auto a = assign_projections(
      {kernel("Cijk_MT256x192x64", 24, 381.41), kernel("Cijk_MT160x256x64", 24, 314.84),
       kernel("Cijk_MT32x64x128", 24, 24.66), kernel("Cijk_MT256x48x64", 1, 346.64)},
      plan, step);
  REQUIRE(a[0].projection);
  CHECK(a[0].projection->kind == ProjectionKind::qkv);
  CHECK(a[0].m == 8192);
  CHECK(projection_flops(*a[0].projection, 8192) == rel(2.0 * 8192 * 5120 * 2880));
  CHECK(a[1].projection->kind == ProjectionKind::o);
  CHECK(a[2].projection->kind == ProjectionKind::router);
  REQUIRE(a[3].projection);
  CHECK(a[3].projection->kind == ProjectionKind::lm_head);
  CHECK(a[3].m == 46);
}

// The run-level pass (plan_head.cpp) over a head of shapeless GEMMs: the SGLang decode step's four
// per-layer GEMMs and its lm_head, then bad inputs.
namespace {

struct PlanHead {
  TopnDocument topn;
  std::vector<HeadEntry> head;
  ResolvedPeaks peaks;
  PlanHead() {
    topn.serving.present = true;
    topn.serving.n_decode_steps = 1;
    topn.serving.decode_batch = 32;
    peaks.hbm_bw_bytes_s = 5.3e12;
    for (auto [name, calls, us] : {std::tuple{"gemm_a", 36.0, 67.157},
                                   {"gemm_b", 36.0, 40.609},
                                   {"gemm_c", 36.0, 25.098},
                                   {"gemm_d", 36.0, 16.732},
                                   {"gemm_head", 1.0, 396.832}}) {
      TopnEntry e;
      e.index = topn.entries.size();
      e.name = e.short_name = name;
      e.calls = calls;
      e.served_regimes = {"decode"};
      e.calls_per_step.decode = calls;
      e.base_latency_ms.decode = us / 1000.0;
      HeadEntry h;
      h.topn_position = h.topn_index = e.index;
      h.name = h.short_name = name;
      h.classified.op_class = OpClass::gemm;
      topn.entries.push_back(e);
      head.push_back(h);
    }
  }
  Findings run(const ModelConfig& cfg) {
    pick_regimes(head, topn, nullptr, &cfg);
    return plan_shapeless_gemms(head, topn, &cfg, nullptr, peaks, ClassRules{});
  }
};

}  // namespace

TEST_CASE("plan_shapeless_gemms: the SGLang decode step's GEMMs, and bad inputs stay L2",
          "[linear_plan]") {
  PlanHead h;
  SECTION("every GEMM assigned, the notes say how") {
    const Findings f = h.run(qwen3_8b());
    const char* kinds[] = {"gate_up", "down", "qkv", "o", "lm_head"};
    for (std::size_t i = 0; i < 5; ++i) {
      REQUIRE(h.head[i].projection);
      REQUIRE(h.head[i].projection->projection);
      CHECK(std::string(to_string(h.head[i].projection->projection->kind)) == kinds[i]);
    }
    CHECK(h.head[0].projection->m == 32);
    REQUIRE(f.notes.size() == 1);
    CHECK(contains(f.notes[0], "gemm_a → gate_up; gemm_b → down"));
  }
  SECTION("a step with zero requests: no rows, L2 with the reason") {
    h.topn.serving.decode_batch = 0;
    h.run(qwen3_8b());
    for (const HeadEntry& e : h.head) {
      REQUIRE(e.projection);
      CHECK_FALSE(e.projection->projection);
      CHECK(contains(e.projection->problem, "no rows for the decode step"));
    }
  }
  SECTION("no rows anywhere: lm_head's grid over its tile bounds its requests") {
    h.topn.serving.decode_batch = 0;
    // cuBLAS's CUTLASS kernel with a 64×64 tile, one launch a step at grid 1×2374×1: Qwen3-8B's
    // 151 936 vocabulary columns are 2374 tiles, so one row tile — 1 to 64 requests.
    const char* name = "cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8";
    h.topn.entries[4].name = h.topn.entries[4].short_name = name;
    ProbeKernel w;
    ProbeCase c;
    c.count = 1;
    c.signature = CaseSignature{};
    c.signature->grid = {1, 2374, 1};
    w.cases.push_back(c);
    h.head[4].evidence.workload = &w;
    h.run(qwen3_8b());
    const HeadEntry& lm = h.head[4];
    REQUIRE(lm.projection);
    INFO(lm.projection->problem);
    REQUIRE(lm.projection->projection);
    CHECK(lm.projection->projection->kind == ProjectionKind::lm_head);
    CHECK(lm.projection->m == 64);
    REQUIRE(lm.projection->m_lo);
    CHECK(*lm.projection->m_lo == 1);
    CHECK(roofline::test::any_contains(lm.plan_notes, {"[M=1 to 64, K=4096]"}));
    // The four per-layer GEMMs have no grid: still no rows, and the reason says the grid too.
    for (std::size_t i = 0; i < 4; ++i) {
      REQUIRE(h.head[i].projection);
      CHECK_FALSE(h.head[i].projection->projection);
      CHECK(contains(h.head[i].projection->problem, "no rows for the decode step"));
      CHECK(contains(h.head[i].projection->problem, "the grid does not bound its rows either"));
    }
  }
  SECTION(
      "a config without intermediate_size: the FFN is left out and named, nothing assigned "
      "wrongly") {
    ModelConfig c = qwen3_8b();
    c.intermediate.reset();
    h.run(c);
    for (std::size_t i = 0; i < 4; ++i) {
      REQUIRE(h.head[i].projection);
      CHECK_FALSE(h.head[i].projection->projection);  // two projections for four kernels
    }
    CHECK(roofline::test::any_contains(h.head[0].plan_notes, {"intermediate_size"}));
  }
  SECTION("no config: nothing planned, one run note, and each kernel names --config") {
    pick_regimes(h.head, h.topn, nullptr, nullptr);
    const Findings f = plan_shapeless_gemms(h.head, h.topn, nullptr, nullptr, h.peaks, {});
    CHECK(contains(f.notes.at(0), "not built (no config.json)"));
    REQUIRE(h.head[0].projection);
    CHECK_FALSE(h.head[0].projection->projection);
    // docs/method.md §16.4: the option that settles it, and no other (the regime is known).
    CHECK(h.head[0].projection->problem ==
          "the linear plan needs a model config (no config.json); --config FILE would settle it");
  }
}

TEST_CASE(
    "plan_shapeless_gemms: one kernel serving two projections, told apart by its graph-replay "
    "grids, gets one projection per signature",
    "[linear_plan][signatures]") {
  PlanHead h;
  // gemm_c and gemm_d become one kernel launched 72 times a step at two grids (36 each)
  h.topn.entries.erase(h.topn.entries.begin() + 3);
  h.head.erase(h.head.begin() + 3);
  TopnEntry& c = h.topn.entries[2];
  c.calls = 72;
  c.calls_per_step.decode = 72;
  c.base_latency_ms.decode = (25.098 + 16.732) / 2 / 1000.0;
  for (std::size_t i = 0; i < h.topn.entries.size(); ++i)
    h.topn.entries[i].index = h.head[i].topn_position = h.head[i].topn_index = i;
  ProbeKernel workload;
  workload.target = c.name;
  for (auto [grid, us] : {std::pair{256, 25.098}, std::pair{16, 16.732}}) {
    ProbeCase k;
    k.count = 36;
    k.gpu_us_avg = us;
    CaseSignature sig;
    sig.grid = {grid, 1, 1};
    sig.block = {128, 1, 1};
    sig.replay = true;
    k.signature = sig;
    workload.cases.push_back(k);
  }
  h.head[2].evidence.workload = &workload;
  const Findings f = h.run(qwen3_8b());
  REQUIRE(h.head[2].projection);
  REQUIRE(h.head[2].projection->projection);
  REQUIRE(h.head[2].planned_workload);
  const ProbeKernel& planned = *h.head[2].planned_workload;
  CHECK(h.head[2].evidence.workload == &planned);
  REQUIRE(planned.cases.size() == 2);
  // by per-launch time against bytes: the slower grid is qkv (N 6144), the faster o (N 4096)
  CHECK(planned.cases[0].planned == "qkv_proj");
  CHECK(planned.cases[0].dims == std::vector<std::vector<std::int64_t>>{{32, 4096}, {4096, 6144}});
  CHECK(planned.cases[1].planned == "o_proj");
  CHECK(planned.cases[1].dims == std::vector<std::vector<std::int64_t>>{{32, 4096}, {4096, 4096}});
  CHECK(workload.cases[0].dims.empty());  // the run's own evidence is never edited
  CHECK(contains(f.notes.at(0), "→ qkv + o"));
  CHECK(roofline::test::any_contains(h.head[2].plan_notes, {"one projection per signature"}));
  // the other kernels keep theirs
  CHECK(h.head[0].projection->projection->kind == ProjectionKind::gate_up);
  CHECK(h.head[1].projection->projection->kind == ProjectionKind::down);

  SECTION("a share that is no whole number of launches a step: one kernel, not split") {
    PlanHead g;
    g.topn.entries.erase(g.topn.entries.begin() + 3);
    g.head.erase(g.head.begin() + 3);
    for (std::size_t i = 0; i < g.topn.entries.size(); ++i)
      g.topn.entries[i].index = g.head[i].topn_position = g.head[i].topn_index = i;
    g.topn.entries[2].calls_per_step.decode = 72;
    workload.cases[0].count = 36;  // 72 launches a step as 36 : 37 = 35.5 and 36.5 a step
    workload.cases[1].count = 37;
    g.head[2].evidence.workload = &workload;
    g.run(qwen3_8b());
    CHECK_FALSE(g.head[2].planned_workload);
    REQUIRE(g.head[2].projection);
    CHECK_FALSE(g.head[2].projection->projection);  // as one kernel at 72 a step: no projection
  }
  SECTION(
      "one projection at two grids (two batch sizes): the split fits nothing, so the kernel "
      "is planned whole") {
    PlanHead g;  // gemm_c (qkv, 36 a step) at grids 256 and 128, 18 launches a step each
    ProbeKernel two;
    for (int grid : {256, 128}) {
      ProbeCase k;
      k.count = 18;
      k.gpu_us_avg = 25.098;
      CaseSignature sig;
      sig.grid = {grid, 1, 1};
      sig.block = {128, 1, 1};
      k.signature = sig;
      two.cases.push_back(k);
    }
    g.head[2].evidence.workload = &two;
    g.run(qwen3_8b());
    CHECK_FALSE(g.head[2].planned_workload);
    REQUIRE(g.head[2].projection);
    REQUIRE(g.head[2].projection->projection);
    CHECK(g.head[2].projection->projection->kind == ProjectionKind::qkv);
  }
}

TEST_CASE(
    "signature labels: the projections people name, together where one shape serves several, "
    "narrowed by the parallel-linear module's class",
    "[projection_plan][signatures]") {
  const ModelConfig cfg = qwen3_8b();  // q and o share [4096, 4096]
  const ModelContext ctx{nullptr, &cfg, "", nullptr};
  ProbeCase c;
  c.dims = {{32, 4096}, {4096, 4096}};
  CaseSignature sig;
  sig.op = "aten::mm";
  c.signature = sig;
  using roofline::analyze::detail::signature_label;
  CHECK(signature_label(c, OpClass::gemm, ctx) == "q_proj / o_proj [32×4096]·[4096×4096]");
  c.signature->module = "RowParallelLinear";  // SGLang's module class: the output side
  CHECK(signature_label(c, OpClass::gemm, ctx) == "o_proj [32×4096]·[4096×4096]");
  c.signature->module = "model.layers.0.mlp.down_proj";  // says nothing of the class: both kept
  CHECK(signature_label(c, OpClass::gemm, ctx) == "q_proj / o_proj [32×4096]·[4096×4096]");
  c.dims = {{32, 4096}, {4096, 151936}};
  c.signature->module.clear();
  CHECK(signature_label(c, OpClass::gemm, ctx) == "lm_head [32×4096]·[4096×151936]");
  c.dims = {{32, 4096}, {4096, 24576}};  // gate_up (2·12288)
  CHECK(signature_label(c, OpClass::gemm, ctx) == "gate_up_proj [32×4096]·[4096×24576]");
  c.dims = {{32, 4096}, {4096, 999}};  // no projection: the op's name
  CHECK(signature_label(c, OpClass::gemm, ctx) == "mm [32×4096]·[4096×999]");
}

}  // namespace unit_projection_plan
