// The op table (data/op_table.tsv) and its reader (docs/method.md §23), one test per row on the
// argument list a real trace recorded for it: `Input Dims`, `Input type` and `Concrete Inputs`
// quoted as the trace writes them. The traces: the wild vLLM OLMoE prefill and decode on an RTX PRO
// 6000 Blackwell (../shared/fixtures/wild/, "wild prefill/decode"), the vLLM gpt-oss mixed step on
// MI300X (tests/fixtures/serving/vllm_gptoss_mixed_step_mi300x, "gpt-oss"), and the H200 decode
// step (tests/fixtures/torch-trace/h200_decode_step, "h200"). Rows no fixture records are tested
// on a list written from the op's schema, and say so.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "roofline/analyze/evidence/op_reading.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/op_table.hpp"
#include "unit/test_helpers.hpp"

namespace unit_op_table {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

// An OpCall from the three lists of a recorded cpu_op's args, as JSON text.
OpCall recorded(const std::string& op, const char* dims, const char* types, const char* concrete) {
  const auto d = nlohmann::json::parse(dims), t = nlohmann::json::parse(types),
             c = nlohmann::json::parse(concrete);
  OpCall call{op, {}, true, {}};
  for (std::size_t i = 0; i < d.size(); ++i) {
    OpArg a;
    for (const auto& x : d[i]) {
      if (x.is_array())
        a.list.push_back(x.get<std::vector<std::int64_t>>());
      else
        a.dims.push_back(x.get<std::int64_t>());
    }
    a.dtype = i < t.size() ? t[i].get<std::string>() : "";
    a.scalar = i < c.size() ? c[i].get<std::string>() : "";
    call.args.push_back(std::move(a));
  }
  return call;
}

std::string joined(const std::vector<std::string>& notes) {
  std::string s;
  for (const auto& n : notes) s += n + "\n";
  return s;
}

OpReading read_ok(const OpCall& call) {
  OpReading r = read_op_call(call);
  INFO(call.op << ": " << r.why_not);
  REQUIRE(r.read);
  return r;
}

}  // namespace

TEST_CASE("op table: the shipped table parses and covers the ops the contract lists",
          "[op_table]") {
  const auto& table = builtin_op_table();
  for (const char* op : {"aten::mm",
                         "aten::addmm",
                         "aten::bmm",
                         "aten::baddbmm",
                         "aten::matmul",
                         "aten::linear",
                         "aten::_scaled_mm",
                         "_C::cutlass_scaled_mm",
                         "_C::dynamic_scaled_fp8_quant",
                         "_C::static_scaled_int8_quant",
                         "aten::_flash_attention_forward",
                         "aten::scaled_dot_product_attention",
                         "aten::_scaled_dot_product_flash_attention",
                         "aten::_scaled_dot_product_efficient_attention",
                         "aten::_scaled_dot_product_cudnn_attention",
                         "aten::_cudnn_attention_forward",
                         "_vllm_fa2_C::varlen_fwd",
                         "_vllm_fa3_C::fwd",
                         "flash_attn::_flash_attn_varlen_forward",
                         "vllm::unified_attention",
                         "vllm::unified_attention_with_output",
                         "flashinfer::batch_prefill_with_paged_kv_cache_run",
                         "flashinfer::batch_decode_with_paged_kv_cache_run",
                         "aiter::mha_fwd",
                         "aiter::mha_batch_prefill",
                         "_C_cache_ops::reshape_and_cache_flash",
                         "vllm::moe_forward",
                         "_moe_C::topk_softmax",
                         "_C::silu_and_mul",
                         "aten::rms_norm",
                         "_C::fused_add_rms_norm",
                         "_C::rotary_embedding",
                         "aten::embedding",
                         "aten::copy_",
                         "aten::cat",
                         "aten::index_select",
                         "aten::add",
                         "aten::mul",
                         "aten::convolution"}) {
    INFO(op);
    CHECK(find_op_row(table, op) != nullptr);
  }
  CHECK(find_op_row(table, "aten::mmm") == nullptr);
  CHECK(find_op_row(table, "vllm::rocm_unquantized_gemm_impl")->op ==
        "vllm::rocm_unquantized_gemm*");
}

TEST_CASE("op table: parse errors name the line and what is wrong", "[op_table]") {
  const auto bad = parse_op_table(
      "aten::mm gemm gemm 0:in:MK,1:weight:KN -\n"
      "aten::mm gemm gemm 0:in:MK,1:weight:KN -\n"
      "x::a gemm gemm 1:in:MK,0:weight:KN -\n"
      "x::b gemm gemm 0:in:MK,1:hat:KN -\n"
      "x::c attn attention 0:q:THD -\n"
      "x::d gemm nope - -\n"
      "x::e gemm gemm 0:in:MK,1:weight:KN causal@1\n"
      "x::f elementwise copy 0:in\n",
      "t.tsv");
  REQUIRE(bad.value);
  CHECK(bad.value->size() == 1);
  REQUIRE(bad.errors.size() == 7);
  CHECK(bad.errors[0] == "t.tsv:2: op 'aten::mm' repeats line 1");
  CHECK_THAT(bad.errors[1], Catch::Contains("positions must ascend"));
  CHECK_THAT(bad.errors[2], Catch::Contains("'1:hat:KN'"));
  CHECK_THAT(bad.errors[3], Catch::Contains("attention needs q"));
  CHECK_THAT(bad.errors[4], Catch::Contains("unknown formula 'nope'"));
  CHECK_THAT(bad.errors[5], Catch::Contains("sits at an operand's position"));
  CHECK_THAT(bad.errors[6], Catch::Contains("expected 'op class formula operands scalars'"));
}

TEST_CASE("op table: aten::mm (wild prefill, the qkv projection with its out= buffer)",
          "[op_table]") {
  const auto r = read_ok(recorded("aten::mm", R"([[1024, 2048], [2048, 6144], [1024, 6144]])",
                                  R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])",
                                  R"(["", "", ""])"));
  REQUIRE(r.gemm);
  CHECK(r.gemm->m == 1024);
  CHECK(r.gemm->k == 2048);
  CHECK(r.gemm->n == 6144);
  // 1024·2048·2 + 2048·6144·2 + 1024·6144·2 (the recorded output)
  CHECK(r.bytes == rel(4194304.0 + 25165824.0 + 12582912.0));
  CHECK(r.flops == rel(2.0 * 1024 * 6144 * 2048));
  CHECK(r.weight_dtype == "bf16");
}

TEST_CASE("op table: aten::mm without its output (wild decode, lm_head)", "[op_table]") {
  const auto r = read_ok(recorded("aten::mm", R"([[1, 2048], [2048, 50304]])",
                                  R"(["c10::BFloat16", "c10::BFloat16"])", R"(["", ""])"));
  CHECK(r.bytes == rel(1 * 2048 * 2.0 + 2048 * 50304 * 2.0 + 50304 * 2.0));
  CHECK(r.flops == rel(2.0 * 50304 * 2048));
}

TEST_CASE("op table: aten::linear stores its weight [N, K] (wild prefill, lm_head)", "[op_table]") {
  const auto r = read_ok(recorded("aten::linear", R"([[1, 2048], [50304, 2048], []])",
                                  R"(["c10::BFloat16", "c10::BFloat16", ""])", R"(["", "", ""])"));
  REQUIRE(r.gemm);
  CHECK(r.gemm->n == 50304);
  CHECK(r.gemm->k == 2048);
  CHECK(r.bytes == rel(4096.0 + 206045184.0 + 100608.0));
}

TEST_CASE("op table: aten::matmul [M, K]·[K, N] (wild prefill)", "[op_table]") {
  const auto r = read_ok(recorded("aten::matmul", R"([[1, 2048], [2048, 50304]])",
                                  R"(["c10::BFloat16", "c10::BFloat16"])", R"(["", ""])"));
  CHECK(r.gemm->n == 50304);
  CHECK(r.flops == rel(206045184.0));
}

TEST_CASE("op table: vllm::rocm_unquantized_gemm weight [N, K] (gpt-oss lm_head)", "[op_table]") {
  const auto r =
      read_ok(recorded("vllm::rocm_unquantized_gemm", R"([[46, 2880], [201088, 2880], []])",
                       R"(["c10::BFloat16", "c10::BFloat16", ""])", R"(["", "", ""])"));
  CHECK(r.gemm->m == 46);
  CHECK(r.gemm->n == 201088);
  CHECK(r.flops == rel(2.0 * 46 * 201088 * 2880));
}

TEST_CASE("op table: aten::bmm (h200, the all-expert batched GEMM)", "[op_table]") {
  const auto r = read_ok(recorded("aten::bmm", R"([[128, 8, 2048], [128, 2048, 1536]])",
                                  R"(["c10::BFloat16", "c10::BFloat16"])", R"(["", ""])"));
  REQUIRE(r.gemm);
  CHECK(r.gemm->batch == 128);
  CHECK(r.flops == rel(2.0 * 128 * 8 * 1536 * 2048));
  CHECK(r.bytes == rel(2.0 * 128 * (8 * 2048 + 2048 * 1536 + 8 * 1536)));
}

TEST_CASE("op table: addmm has its bias first (schema)", "[op_table]") {
  const auto r = read_ok(recorded("aten::addmm", R"([[5120], [8192, 2880], [2880, 5120]])",
                                  R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])",
                                  R"(["", "", ""])"));
  CHECK(r.gemm->m == 8192);
  CHECK(r.gemm->n == 5120);
  CHECK(r.bytes == rel(2.0 * (8192 * 2880 + 2880 * 5120 + 8192 * 5120 + 5120)));
}

TEST_CASE("op table: _C::cutlass_scaled_mm has its output first (schema, online fp8)",
          "[op_table]") {
  const auto r = read_ok(recorded(
      "_C::cutlass_scaled_mm", R"([[1024, 6144], [1024, 2048], [2048, 6144], [1024, 1], [1], []])",
      R"(["c10::BFloat16", "c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", ""])",
      R"(["", "", "", "", "", ""])"));
  CHECK(r.gemm->m == 1024);
  CHECK(r.gemm->k == 2048);
  CHECK(r.gemm->n == 6144);
  CHECK(r.weight_dtype == "fp8");
  CHECK(r.act_dtype == "fp8");
  CHECK(r.out_dtype == "bf16");
  // a 1024·2048·1 + w 2048·6144·1 + out 1024·6144·2 + scales (1024 + 1)·4
  CHECK(r.bytes == rel(2097152.0 + 12582912.0 + 12582912.0 + 4100.0));
}

TEST_CASE("op table: an unsigned char weight showing K/2 is packed 4-bit (schema)", "[op_table]") {
  const auto r = read_ok(recorded("aten::mm", R"([[16, 2048], [1024, 6144]])",
                                  R"(["c10::BFloat16", "unsigned char"])", R"(["", ""])"));
  CHECK(r.weight_dtype == "fp4");
  CHECK(r.weight_bytes == rel(2048 * 6144 * 0.5));
  CHECK_THAT(joined(r.notes), Catch::Contains("packed 4-bit"));
  const auto fp8 = read_ok(recorded("aten::mm", R"([[16, 2048], [2048, 6144]])",
                                    R"(["c10::BFloat16", "unsigned char"])", R"(["", ""])"));
  CHECK(fp8.weight_bytes == rel(2048 * 6144 * 1.0));
  CHECK_THAT(joined(fp8.notes), Catch::Contains("1-byte values"));
}

TEST_CASE("op table: _vllm_fa2_C::varlen_fwd reads its scalars (wild prefill)", "[op_table]") {
  const auto r = read_ok(recorded(
      "_vllm_fa2_C::varlen_fwd",
      R"([[1024, 16, 128], [37165, 16, 16, 128], [37165, 16, 16, 128], [1024, 16, 128], [2], [2], [1], [], [1, 256], [], [], [], [], [], [], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "int", "int", "int", "", "int", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", ""])",
      R"(["", "", "", "", "", "", "", "", "", "", "1024", "1024", "0.", "0.088388347648318447", "False", "True", "-1", "-1", "0.", "False", "0", ""])"));
  REQUIRE(r.attention);
  CHECK(r.attention->sequences == 1);
  CHECK(r.attention->q_len == 1024);
  CHECK(r.attention->k_len == 1024);
  CHECK(r.attention->causal == true);
  CHECK(r.attention->paged);
  CHECK(r.attention->regime == Regime::prefill);
  // Q, K, V, O: 1024·16·128·2 each; the 37165-block pool is never counted
  CHECK(r.bytes == rel(4.0 * 4194304.0));
  // causal pairs 1024·1025/2 = 524800; 2·16·524800·(128 + 128)
  CHECK(r.flops == rel(2.0 * 16 * 524800 * 256));
}

namespace {
// vLLM's flash-attention decode over 8 sequences (one query each) on the paged pool, with
// max_seqlen_k 900: the wild prefill's argument list with 8 sequences (constructed).
OpCall decode_8_sequences() {
  return recorded(
      "_vllm_fa2_C::varlen_fwd",
      R"([[8, 16, 128], [37165, 16, 16, 128], [37165, 16, 16, 128], [8, 16, 128], [9], [9], [8], [], [8, 256], [], [], [], [], [], [], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "int", "int", "int", "", "int", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", ""])",
      R"(["", "", "", "", "", "", "", "", "", "", "1", "900", "0.", "0.088388347648318447", "False", "True", "-1", "-1", "0.", "False", "0", ""])");
}
// Per key: K and V of 16 heads of 128 at 2 B; 2·16·(128 + 128) FLOPs. Q and O: 8·16·128·2 each.
constexpr double k_key_bytes = 16.0 * 128 * 2 * 2, k_key_flops = 2.0 * 16 * 256;
constexpr double k_q_and_o = 2.0 * 8 * 16 * 128 * 2;
double keys_bytes(double keys) {
  return k_q_and_o + keys * k_key_bytes;
}
}  // namespace

TEST_CASE(
    "op table: decode over several sequences: max_seqlen_k bounds the context, a range of keys "
    "(docs/method.md §10.8; constructed from the wild prefill's list)",
    "[op_table][band]") {
  const OpReading r = read_ok(decode_8_sequences());
  REQUIRE(r.attention);
  CHECK(r.attention->regime == Regime::decode);
  REQUIRE(r.attention->context_bound);
  const ContextBound& b = *r.attention->context_bound;
  // at most every sequence at 900 keys; at least one at 900 and the other 7 at their one key
  CHECK(b.keys_hi == 7200);
  CHECK(b.keys_lo == 907);
  CHECK(b.key_bytes == k_key_bytes);
  CHECK(b.key_flops == k_key_flops);
  CHECK(b.fixed_bytes == k_q_and_o);
  CHECK(r.bytes == rel(keys_bytes(7200)));
  CHECK(r.flops == rel(7200 * k_key_flops));
  CHECK_THAT(joined(r.notes), Catch::Contains("up to 900 keys each"));
  // max_seqlen_q above max_seqlen_k contradicts itself (a context holds its queries): not read
  OpCall prefill = decode_8_sequences();
  prefill.args[10].scalar = "1000";
  const OpReading p = read_op_call(prefill);
  CHECK_FALSE(p.read);
  CHECK_THAT(p.why_not, Catch::Contains("bound their lengths, they do not give them"));
}

namespace {
// The same list as a mixed step: 40 queries over the 8 sequences, max_seqlen_q 16 (constructed).
OpCall prefill_8_sequences() {
  OpCall c = decode_8_sequences();
  c.args[0].dims = {40, 16, 128};
  c.args[3].dims = {40, 16, 128};
  c.args[10].scalar = "16";
  return c;
}
// Per pair 2·16·(128 + 128) FLOPs; Q and O 40·16·128·2 B each.
constexpr double k_pair_flops = 2.0 * 16 * 256, k_q_and_o_40 = 2.0 * 40 * 16 * 128 * 2;
}  // namespace

TEST_CASE(
    "op table: prefill over several sequences: max_seqlen_q and max_seqlen_k bound the lengths, "
    "two states bound the band (docs/method.md §10.8; constructed from the wild prefill's list)",
    "[op_table][band]") {
  const OpReading r = read_ok(prefill_8_sequences());
  REQUIRE(r.attention);
  CHECK(r.attention->regime == Regime::prefill);
  REQUIRE(r.attention->seqlen_bound);
  const SeqlenBound& b = *r.attention->seqlen_bound;
  // 40 queries split evenly: 5 a sequence. Each context its own 5 queries: 5 keys and
  // 1+2+3+4+5 = 15 causal pairs a sequence; each context at 900: 900 keys and
  // 896+897+898+899+900 = 4490 pairs a sequence.
  CHECK(b.keys_lo == 40);
  CHECK(b.pairs_lo == 8 * 15);
  CHECK(b.keys_hi == 7200);
  CHECK(b.pairs_hi == 8 * 4490);
  CHECK(b.key_bytes == k_key_bytes);
  CHECK(b.pair_flops == k_pair_flops);
  CHECK(b.fixed_bytes == k_q_and_o_40);
  CHECK_THAT(joined(r.notes), Catch::Contains("8 sequence(s), up to 16 queries each"));
  // An uneven split: 43 queries are three sequences of 6 and five of 5.
  OpCall odd = prefill_8_sequences();
  odd.args[0].dims = odd.args[3].dims = {43, 16, 128};
  const OpReading uneven = read_ok(odd);
  REQUIRE(uneven.attention);
  REQUIRE(uneven.attention->seqlen_bound);
  const SeqlenBound& u = *uneven.attention->seqlen_bound;
  CHECK(u.keys_lo == 43);
  CHECK(u.pairs_lo == 3 * 21 + 5 * 15);
  CHECK(u.pairs_hi == 3 * (895 + 896 + 897 + 898 + 899 + 900) + 5 * 4490);
  // More queries than the sequences can hold at max_seqlen_q (8 · 16 < 200): not read.
  OpCall over = prefill_8_sequences();
  over.args[0].dims = over.args[3].dims = {200, 16, 128};
  CHECK_FALSE(read_op_call(over).read);
}

TEST_CASE("op table: a prefill's length bound: the top taken, the bottom a reading, the time cuts",
          "[op_table][model][band]") {
  const ModelConfig config;
  const ResolvedPeaks peaks = roofline::test::gfx950_peaks();  // 8 TB/s
  const ModelContext ctx{nullptr, &config, "", &peaks};
  RegimeChoice regime;
  regime.t_ms = 0.01;  // 80 MB at 8 TB/s: the top fits
  Classification attn;
  attn.op_class = OpClass::attn;
  std::string note;
  auto model = [&](const RegimeChoice& rc) {
    return roofline::analyze::detail::model_from_op_table(prefill_8_sequences(), rc, attn, ctx,
                                                          note);
  };
  const auto w = model(regime);
  REQUIRE(w);
  REQUIRE(w->modeled);
  CHECK(w->candidates[0].bytes == rel(k_q_and_o_40 + 7200 * k_key_bytes));
  CHECK(w->candidates[0].flops == rel(8 * 4490 * k_pair_flops));
  REQUIRE(w->readings.size() == 1);
  CHECK(w->readings[0].key == "seqlen_bound");
  CHECK(w->readings[0].bytes == rel(k_q_and_o_40 + 40 * k_key_bytes));
  CHECK(w->readings[0].flops == rel(8 * 15 * k_pair_flops));
  CHECK(w->readings_decide);
  // 5 µs allows 40 MB: every context cut to 605 keys, floor((40e6 − 327 680) / 8192 / 8);
  // 8 · (601 + … + 605) = 24 120 pairs.
  RegimeChoice quick = regime;
  quick.t_ms = 0.005;
  const auto c = model(quick);
  REQUIRE(c);
  CHECK(c->candidates[0].bytes == rel(k_q_and_o_40 + 8 * 605 * k_key_bytes));
  CHECK(c->candidates[0].flops == rel(24120 * k_pair_flops));
  CHECK_THAT(joined(c->notes), Catch::Contains("contexts cut to 605 keys"));
  // A time that fits not even the bottom: no model, and it says why.
  quick.t_ms = 0.00001;
  CHECK_FALSE(model(quick));
  CHECK_THAT(note, Catch::Contains("moves more bytes than the measured time allows"));
}

TEST_CASE(
    "op table: a context bound's readings: the workload narrows it where it agrees with the "
    "trace, the time cuts its top (docs/method.md §10.8)",
    "[op_table][model][band]") {
  const ModelConfig config;
  const ResolvedPeaks peaks = roofline::test::gfx950_peaks();  // 8 TB/s
  EnvReport env;
  const ModelContext ctx{&env, &config, "", &peaks};
  RegimeChoice regime;
  regime.t_ms = 0.01;  // 80 MB at 8 TB/s: the whole range fits
  Classification attn;
  attn.op_class = OpClass::attn;
  attn.detail.attn = AttnVariant::decode;
  std::string note;
  auto model = [&](const RegimeChoice& rc) {
    auto w =
        roofline::analyze::detail::model_from_op_table(decode_8_sequences(), rc, attn, ctx, note);
    REQUIRE(w);
    REQUIRE(w->modeled);
    return *w;
  };
  SECTION("nothing else: the bound's top is taken, its bottom a reading") {
    const WorkEstimate w = model(regime);
    REQUIRE(w.candidates.size() == 1);
    CHECK(w.candidates[0].bytes == rel(keys_bytes(7200)));
    CHECK(w.candidates[0].flops == rel(7200 * k_key_flops));
    REQUIRE(w.readings.size() == 1);
    CHECK(w.readings[0].key == "context_bound");
    CHECK(w.readings[0].bytes == rel(keys_bytes(907)));
    CHECK(w.readings[0].flops == rel(907 * k_key_flops));
    CHECK(w.readings_decide);
    CHECK(w.kv_bytes == rel(7200 * k_key_bytes));
  }
  SECTION("isl 600, osl 400: every context in [600, 1000], one at 900; isl + osl/2 taken") {
    env.workload.isl = 600;
    env.workload.osl = 400;
    const WorkEstimate w = model(regime);
    CHECK(w.candidates[0].bytes == rel(keys_bytes(8 * 800)));
    REQUIRE(w.readings.size() == 2);
    CHECK(w.readings[0].bytes == rel(keys_bytes(900 + 7 * 600)));  // 5100 keys
    CHECK(w.readings[1].bytes == rel(keys_bytes(7200)));
  }
  SECTION("isl 1024 says more than max_seqlen_k 900 allows: the trace's bound stands") {
    env.workload.isl = 1024;
    env.workload.osl = 256;
    const WorkEstimate w = model(regime);
    CHECK(w.candidates[0].bytes == rel(keys_bytes(7200)));
    CHECK(w.readings.size() == 1);
    CHECK_THAT(joined(w.notes), Catch::Contains("the trace's bound stands"));
  }
  SECTION("the measured decode context fixes the keys: one point") {
    env.workload.decode_context = 850;
    env.workload.decode_context_source = "the step annotations";
    const WorkEstimate w = model(regime);
    CHECK(w.candidates[0].bytes == rel(keys_bytes(8 * 850)));
    CHECK(w.readings.empty());
    CHECK_FALSE(w.readings_decide);
  }
  SECTION("5 µs allows 40 MB: the top is cut to the whole keys that fit") {
    RegimeChoice quick = regime;
    quick.t_ms = 0.005;
    const WorkEstimate w = model(quick);
    // floor((40 000 000 − 65 536) / 8192) = 4874 keys
    CHECK(w.candidates[0].bytes == rel(keys_bytes(4874)));
    CHECK(w.candidates[0].bytes <= 40.0e6);
    REQUIRE(w.readings.size() == 1);
    CHECK(w.readings[0].bytes == rel(keys_bytes(907)));
    CHECK_THAT(joined(w.notes), Catch::Contains("is cut to 4874") &&
                                    Catch::Contains("the most keys the measured time allows"));
  }
}

TEST_CASE("op table: _cudnn_attention_forward decode (h200)", "[op_table]") {
  const auto r = read_ok(recorded(
      "aten::_cudnn_attention_forward",
      R"([[64, 32, 1, 128], [64, 4, 8704, 128], [64, 4, 8704, 128], [], [], [], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", ""])",
      R"(["", "", "", "", "", "", "1", "8704", "False", "0.", "False", "False", ""])"));
  REQUIRE(r.attention);
  CHECK(r.attention->sequences == 64);
  CHECK(r.attention->kv_heads == 4);
  CHECK(r.attention->regime == Regime::decode);
  CHECK(r.flops == rel(2.0 * 32 * 64 * 8704 * 256));
  CHECK(r.bytes == rel(2.0 * 524288 + 2.0 * 64 * 8704 * 4 * 128 * 2));
}

TEST_CASE("op table: the SDPA ops read causal at their own positions (h200)", "[op_table]") {
  const auto sdpa = read_ok(recorded(
      "aten::scaled_dot_product_attention",
      R"([[64, 32, 1, 128], [64, 4, 8704, 128], [64, 4, 8704, 128], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "Scalar", "Scalar", "", "Scalar"])",
      R"(["", "", "", "", "0.", "False", "", "True"])"));
  CHECK(sdpa.attention->causal == false);
  CHECK(sdpa.flops == rel(2.0 * 32 * 64 * 8704 * 256));
  const auto cudnn = read_ok(recorded(
      "aten::_scaled_dot_product_cudnn_attention",
      R"([[64, 32, 1, 128], [64, 4, 8704, 128], [64, 4, 8704, 128], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "Scalar", "Scalar", "Scalar", "Scalar", ""])",
      R"(["", "", "", "", "False", "0.", "False", "False", ""])"));
  CHECK(cudnn.attention->causal == false);
  CHECK(cudnn.bytes == rel(sdpa.bytes));
}

TEST_CASE("op table: vllm::unified_attention_with_output records no context (wild prefill)",
          "[op_table]") {
  const OpReading r = read_op_call(recorded(
      "vllm::unified_attention_with_output",
      R"([[1024, 16, 128], [1024, 16, 128], [1024, 16, 128], [1024, 16, 128], [], [], [], [0]])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "", "c10::BFloat16"])",
      R"(["", "", "", "", "", "", "", ""])"));
  CHECK_FALSE(r.read);
  CHECK_THAT(r.why_not, Catch::Contains("vllm::unified_attention_with_output"));
  CHECK_THAT(r.why_not, Catch::Contains("the step's sums or the capture must say it"));
}

TEST_CASE(
    "op table: reshape_and_cache_flash writes the new tokens, not the pool (wild prefill, "
    "gpt-oss)",
    "[op_table]") {
  const auto r = read_ok(recorded(
      "_C_cache_ops::reshape_and_cache_flash",
      R"([[1024, 16, 128], [1024, 16, 128], [37165, 16, 16, 128], [37165, 16, 16, 128], [1024], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "long int", "", "float", "float"])",
      R"(["", "", "", "", "", "", "", ""])"));
  CHECK(r.bytes == rel(2.0 * 4194304 + 2.0 * 4194304 + 8192));
  CHECK(r.flops == 0.0);
  const auto g = read_ok(recorded(
      "_C_cache_ops::reshape_and_cache_flash",
      R"([[8192, 8, 64], [8192, 8, 64], [224304, 32, 8, 64], [224304, 32, 8, 64], [8192], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "long int", "", "float", "float"])",
      R"(["", "", "", "", "", "", "", ""])"));
  CHECK(g.bytes == rel(16777216.0 + 16777216.0 + 65536.0));
}

TEST_CASE("op table: vllm::moe_forward leaves the experts to the MoE model (wild prefill)",
          "[op_table]") {
  const OpReading r = read_op_call(
      recorded("vllm::moe_forward", R"([[1024, 2048], [1024, 64], [], [], []])",
               R"(["c10::BFloat16", "c10::BFloat16", "", "", ""])", R"(["", "", "", "", ""])"));
  CHECK_FALSE(r.read);
  CHECK_THAT(r.why_not, Catch::Contains("MoE model"));
}

TEST_CASE("op table: _moe_C::topk_softmax writes its outputs first (wild prefill)", "[op_table]") {
  const auto r = read_ok(recorded("_moe_C::topk_softmax",
                                  R"([[1024, 8], [1024, 8], [1024, 8], [1024, 64], [], []])",
                                  R"(["float", "int", "int", "c10::BFloat16", "Scalar", ""])",
                                  R"(["", "", "", "", "False", ""])"));
  CHECK(r.bytes == rel(3.0 * 1024 * 8 * 4 + 1024 * 64 * 2));
}

TEST_CASE("op table: norms, gathers, copies and elementwise ops (h200, wild prefill)",
          "[op_table]") {
  const auto norm = read_ok(recorded("aten::rms_norm", R"([[64, 2048], [], [2048], []])",
                                     R"(["c10::BFloat16", "ScalarList", "c10::BFloat16", ""])",
                                     R"(["", "[2048]", "", ""])"));
  CHECK(norm.bytes == rel(262144.0 + 4096.0 + 262144.0));
  const auto gather =
      read_ok(recorded("aten::index_select", R"([[4194304], [], [1024], [1024]])",
                       R"(["int", "Scalar", "long int", "int"])", R"(["", "0", "", ""])"));
  CHECK(gather.bytes == rel(4096.0 + 4096.0 + 8192.0));
  const auto copy =
      read_ok(recorded("aten::copy_", R"([[64, 128], [64, 128], []])",
                       R"(["float", "c10::BFloat16", "Scalar"])", R"(["", "", "False"])"));
  CHECK(copy.bytes == rel(32768.0 + 16384.0));
  const auto add =
      read_ok(recorded("aten::add", R"([[64, 2048], [64, 2048], []])",
                       R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])", R"(["", "", "1"])"));
  CHECK(add.bytes == rel(3.0 * 262144));
  const auto mul = read_ok(recorded("aten::mul", R"([[128, 8, 768], [128, 8, 768]])",
                                    R"(["c10::BFloat16", "c10::BFloat16"])", R"(["", ""])"));
  CHECK(mul.bytes == rel(3.0 * 1572864));
  const auto silu =
      read_ok(recorded("aten::silu", R"([[128, 8, 768]])", R"(["c10::BFloat16"])", R"([""])"));
  CHECK(silu.bytes == rel(2.0 * 1572864));
}

TEST_CASE("op table: silu_and_mul, fused_add_rms_norm and rotary (schema)", "[op_table]") {
  const auto glu = read_ok(recorded("_C::silu_and_mul", R"([[8192, 1024], [8192, 2048]])",
                                    R"(["c10::BFloat16", "c10::BFloat16"])", R"(["", ""])"));
  CHECK(glu.bytes == rel(2.0 * 8192 * 3072));
  const auto fused =
      read_ok(recorded("_C::fused_add_rms_norm", R"([[16, 2048], [16, 2048], [2048], []])",
                       R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar"])",
                       R"(["", "", "", "1e-05"])"));
  CHECK(fused.bytes == rel(4.0 * 16 * 2048 * 2 + 4096));
  const auto rope = read_ok(recorded(
      "_C::rotary_embedding", R"([[16], [16, 2048], [16, 2048], [], [4096, 128], []])",
      R"(["long int", "c10::BFloat16", "c10::BFloat16", "Scalar", "c10::BFloat16", "Scalar"])",
      R"(["", "", "", "128", "", "True"])"));
  // positions 16·8 + q and k read and written + 16 cos/sin rows of 128 (never the 4096-row cache)
  CHECK(rope.bytes == rel(128.0 + 4.0 * 16 * 2048 * 2 + 16 * 128 * 2.0));
}

TEST_CASE("op table: a list that dropped its empty arguments binds tensors in order",
          "[op_table]") {
  OpCall call{"aten::linear", {}, false, {}};
  call.args.push_back(OpArg{{1, 2048}, {}, "c10::BFloat16", ""});
  call.args.push_back(OpArg{{50304, 2048}, {}, "c10::BFloat16", ""});
  const auto r = read_ok(call);
  CHECK(r.gemm->n == 50304);
  call.op = "my_ext::fused_thing";
  const auto none = read_op_call(call);
  CHECK_FALSE(none.read);
  CHECK(none.why_not == "the op table lacks 'my_ext::fused_thing': the rules without it apply");
}

TEST_CASE("op table: a causal window caps the keys each query sees (constructed)", "[op_table]") {
  OpCall call = recorded(
      "flash_attn::_flash_attn_varlen_forward",
      R"([[100, 2, 64], [100, 1, 64], [100, 1, 64], [2], [2], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "int", "int", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
      R"(["", "", "", "", "", "100", "100", "0.", "0.125", "True", "9", "0"])");
  const auto r = read_ok(call);
  // each query sees at most 10 keys: 1 + 2 + … + 10 for the first ten, then 90·10
  CHECK(r.flops == rel(2.0 * 2 * (55 + 900) * 128));
}

TEST_CASE("op table: a Top-N signature's scalars reach the reader (wild prefill's workload case)",
          "[op_table]") {
  // profile_workload.json's case: the tensors alone, in order; the scalars in the signature, the
  // causal flag as a key, the lengths as ranges over the launches.
  ProbeCase c;
  c.dims = {
      {1024, 16, 128}, {37165, 16, 16, 128}, {37165, 16, 16, 128}, {1024, 16, 128}, {2}, {2}, {1},
      {1, 256}};
  c.dtypes = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16",
              "int",           "int",           "int",           "int"};
  CaseSignature sig;
  sig.op = "_vllm_fa2_C::varlen_fwd";
  sig.scalars = {{15, "causal", "True", {}, {}, {}}, {16, "window_size_left", "-1", {}, {}, {}}};
  sig.ranges = {{10, "max_seqlen_q", "", 1024.0, 1024.0, 1024.0},
                {11, "max_seqlen_k", "", 1024.0, 1024.0, 1024.0}};
  c.signature = sig;
  SECTION("one value over every launch is the value") {
    const auto r = read_ok(detail::case_call(sig.op, c));
    REQUIRE(r.attention);
    CHECK(r.attention->q_len == 1024);
    CHECK(r.attention->causal == true);
    CHECK(r.attention->regime == Regime::prefill);
    CHECK(r.flops == rel(2.0 * 16 * 524800 * 256));
  }
  SECTION("a length that varied over the launches gives no value") {
    c.signature->ranges[1].min = 1.0;  // max_seqlen_k: the paged pool then says nothing
    const OpReading r = read_op_call(detail::case_call(sig.op, c));
    CHECK_FALSE(r.read);
    CHECK_THAT(r.why_not, Catch::Contains("the context is not recorded"));
  }
}

TEST_CASE("op table: _C::cutlass_scaled_fp4_mm reads packed fp4 operands (schema, NVFP4)",
          "[op_table]") {
  // out [M, N] bf16, a [M, K/2] and b [N, K/2] two fp4 values per byte, block scales one fp8 per
  // 16 values (a's rows padded to 128), alpha.
  const double bytes =
      16 * 2048 * 0.5 + 6144 * 2048 * 0.5 + 16 * 6144 * 2.0 + 128 * 128 + 6144 * 128 + 4;
  for (const char* packed : {"unsigned char", "c10::Float4_e2m1fn_x2"}) {
    INFO(packed);
    const std::string types = std::string(R"(["c10::BFloat16", ")") + packed + R"(", ")" + packed +
                              R"(", "c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float"])";
    const auto r = read_ok(recorded("_C::cutlass_scaled_fp4_mm",
                                    R"([[16, 6144], [16, 1024], [6144, 1024], [128, 128], )"
                                    R"([6144, 128], [1]])",
                                    types.c_str(), R"(["", "", "", "", "", ""])"));
    REQUIRE(r.gemm);
    CHECK(r.gemm->k == 2048);
    CHECK(r.gemm->n == 6144);
    CHECK(r.act_dtype == "fp4");
    CHECK(r.weight_dtype == "fp4");
    CHECK(r.flops == rel(2.0 * 16 * 6144 * 2048));
    CHECK(r.bytes == rel(bytes));
    CHECK_THAT(joined(r.notes), Catch::Contains("packed 4-bit operands (activation and weight)"));
  }
}

TEST_CASE("op table: aten::cudnn_convolution as implicit GEMM (schema)", "[op_table]") {
  // x [8, 64, 56, 56], filter [128, 64, 3, 3], padding 1, stride 2: output 28 × 28
  const auto r = read_ok(recorded(
      "aten::cudnn_convolution",
      R"([[8, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "Scalar", "Scalar", "Scalar", "Scalar"])",
      R"(["", "", "[1, 1]", "[2, 2]", "[1, 1]", "1", "False", "False", "True"])"));
  CHECK(r.flops == rel(2.0 * 8 * 128 * 64 * 9 * 28 * 28));
  CHECK(r.bytes == rel((8.0 * 64 * 56 * 56 + 128 * 64 * 9 + 8.0 * 128 * 28 * 28) * 2));
}

// Inductor records each generated kernel under its own name with the kernel's arguments (the
// in_ptr and out_ptr tensors, then xnumel / rnumel), as `_RecordFunctionFast` passes them.
TEST_CASE("op table: an Inductor kernel moves each of its own arguments once (constructed)",
          "[op_table]") {
  // RMSNorm fused by Inductor: x [16, 4096], weight [4096], out [16, 4096], residual out; no
  // output is added for what the op returns (the outputs are among the arguments)
  const auto r = read_ok(recorded(
      "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0",
      R"([[16, 4096], [4096], [16, 4096], [16, 4096], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
      R"(["", "", "", "", "16", "4096"])"));
  CHECK(r.bytes == rel(3.0 * 16 * 4096 * 2 + 4096 * 2));
  CHECK(r.flops == rel(16.0 * 4096));
  CHECK_FALSE(r.other);
  CHECK(joined(r.notes).find("each tensor moved once") != std::string::npos);
  // silu(gate) * up: [16, 28672] in, [16, 14336] out
  const auto glu =
      read_ok(recorded("triton_poi_fused_mul_silu_3", R"([[16, 28672], [16, 14336], []])",
                       R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])", R"(["", "", "229376"])"));
  CHECK(glu.bytes == rel((16.0 * 28672 + 16 * 14336) * 2));
  // a foreach kernel: every list's tensors recorded one by one (x1..x3, y1..y3, out1..out3)
  const auto foreach = read_ok(recorded(
      "triton_for_fused_0",
      R"([[4, 4], [4, 4], [4, 4], [4, 4], [4, 4], [4, 4], [4, 4], [4, 4], [4, 4]])",
      R"(["float", "float", "float", "float", "float", "float", "float", "float", "float"])",
      R"(["", "", "", "", "", "", "", "", ""])"));
  CHECK(foreach.bytes == rel(9.0 * 16 * 4));
  // Inductor's GEMM templates: A, B, then the output (mm); the bias first (addmm), expanded to
  // the output's shape
  const auto tem = read_ok(
      recorded("triton_tem_fused_mm_4", R"([[16, 4096], [4096, 4096], [16, 4096]])",
               R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])", R"(["", "", ""])"));
  REQUIRE(tem.gemm);
  CHECK(tem.gemm->m == 16);
  CHECK(tem.gemm->n == 4096);
  CHECK(tem.bytes == rel((16.0 * 4096 + 4096.0 * 4096 + 16 * 4096) * 2));
  const auto addmm = read_ok(
      recorded("triton_tem_fused_addmm_0", R"([[16, 6144], [16, 4096], [4096, 6144], [16, 6144]])",
               R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])",
               R"(["", "", "", ""])"));
  REQUIRE(addmm.gemm);
  CHECK(addmm.gemm->m == 16);
  CHECK(addmm.gemm->k == 4096);
  CHECK(addmm.gemm->n == 6144);
  CHECK(addmm.flops == rel(2.0 * 16 * 6144 * 4096));
}

TEST_CASE("op table: an integer argument leaves two readings of an Inductor kernel (constructed)",
          "[op_table]") {
  // rotary + cat: qkv [16, 6144], the cos/sin cache [8192, 128], positions [16] (int64), q and k
  // out. Either the cache is moved whole, or rows of it are gathered by the positions.
  const auto r = read_ok(recorded(
      "triton_poi_fused_cat_clone_1",
      R"([[16, 6144], [8192, 128], [16], [16, 32, 128], [16, 8, 128], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "long int", "c10::BFloat16", "c10::BFloat16", "Scalar"])",
      R"(["", "", "", "", "", "65536"])"));
  const double others = (16.0 * 6144 + 16 * 32 * 128 + 16 * 8 * 128) * 2 + 16 * 8;
  CHECK(r.bytes == rel(others + 8192.0 * 128 * 2));
  REQUIRE(r.other);
  CHECK(r.other->bytes_term.value == rel(others + 16.0 * 128 * 2));
  CHECK(r.label == "every argument moved whole");
  CHECK(r.other->label == "[8192, 128] a table gathered by the integer argument [16]");
}

TEST_CASE(
    "op table: two readings beyond the band: the first taken, the other a reading of its band "
    "(docs/method.md §10.8); the split-KV reduction of an attention op is not the op's whole "
    "formula",
    "[op_table][model][band]") {
  const ModelConfig config;
  const ResolvedPeaks peaks = roofline::test::gfx950_peaks();
  const ModelContext ctx{nullptr, &config, "", &peaks};
  RegimeChoice regime;
  regime.t_ms = 0.003;
  Classification ew;
  ew.op_class = OpClass::elementwise;
  std::string note;
  const OpCall rope = recorded(
      "triton_poi_fused_cat_clone_1",
      R"([[16, 6144], [8192, 128], [16], [16, 32, 128], [16, 8, 128], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "long int", "c10::BFloat16", "c10::BFloat16", "Scalar"])",
      R"(["", "", "", "", "", "65536"])");
  const auto w = roofline::analyze::detail::model_from_op_table(rope, regime, ew, ctx, note);
  REQUIRE(w);
  CHECK(w->modeled);
  CHECK_FALSE(w->withheld);
  CHECK(w->readings_decide);
  const double others = (16.0 * 6144 + 16 * 32 * 128 + 16 * 8 * 128) * 2 + 16 * 8;
  REQUIRE(w->candidates.size() == 1);
  CHECK(w->candidates[0].bytes == rel(others + 8192.0 * 128 * 2));  // every argument moved whole
  REQUIRE(w->readings.size() == 1);
  CHECK(w->readings[0].key == "other_reading");
  CHECK(w->readings[0].bytes == rel(364672.0));  // the table gathered by the positions
  CHECK(w->readings[0].bytes == rel(others + 16.0 * 128 * 2));
  CHECK(joined(w->notes).find("two readings of 'triton_poi_fused_cat_clone_1' differ by more "
                              "than the 15 % band") != std::string::npos);
  CHECK(joined(w->notes).find("every argument moved whole: 2.46 MB") != std::string::npos);
  // A time only the smaller reading fits (8 TB/s · 0.1 µs = 800 kB): the measurement refutes the
  // first, the gathered table is taken and there is no band.
  RegimeChoice quick = regime;
  quick.t_ms = 0.0001;
  const auto q = roofline::analyze::detail::model_from_op_table(rope, quick, ew, ctx, note);
  REQUIRE(q);
  CHECK(q->modeled);
  CHECK(q->readings.empty());
  CHECK(q->candidates[0].bytes == rel(364672.0));
  CHECK(joined(q->notes).find("the measured time refutes the first") != std::string::npos);
  // the index reaches every row of the largest tensor: both readings agree, the first stands and
  // the other is named
  const auto ok = roofline::analyze::detail::model_from_op_table(
      recorded("triton_poi_fused_add_index_5", R"([[16, 4096], [16, 4096], [16], [64, 128]])",
               R"(["c10::BFloat16", "c10::BFloat16", "long int", "c10::BFloat16"])",
               R"(["", "", "", ""])"),
      regime, ew, ctx, note);
  REQUIRE(ok);
  CHECK(ok->modeled);
  CHECK_FALSE(ok->withheld);
  CHECK(joined(ok->notes).find("agree within the 15 % band") != std::string::npos);
  CHECK_FALSE(ok->readings_decide);
  CHECK(ok->readings.size() == 1);  // within the band: still a reading of its band

  // flash-attention's split-KV combine kernel under the decode op: 16 query tokens, 32 heads of
  // 128, 8 assumed splits of fp32 partials + LSE, the bf16 output
  Classification reduce;
  reduce.op_class = OpClass::attn;
  reduce.detail.attn = AttnVariant::decode_reduce;
  const OpCall fa = recorded(
      "aten::_flash_attention_forward",
      R"([[16, 1, 32, 128], [16, 4096, 8, 128], [16, 4096, 8, 128], [], [], [], [], [], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "", "", "", ""])",
      R"(["", "", "", "", "", "1", "4096", "0.", "False", "False", "0.088", "", "", "", ""])");
  const auto red = roofline::analyze::detail::model_from_op_table(fa, regime, reduce, ctx, note);
  REQUIRE(red);
  REQUIRE(red->modeled);
  REQUIRE(red->candidates.size() == 1);
  CHECK(red->candidates[0].bytes == rel(16.0 * 32 * 8 * 129 * 4 + 16.0 * 32 * 128 * 2));
  CHECK(joined(red->notes).find("split-KV reduction kernel of the attention op") !=
        std::string::npos);
}

TEST_CASE("op table: PyTorch's memory-efficient attention, a causal prefill (schema)",
          "[op_table]") {
  // _efficient_attention_forward(q, k, v, bias, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
  // max_seqlen_k, dropout_p, custom_mask_type, compute_log_sumexp, scale, ...): q [B, S, H, D]
  const auto r = read_ok(recorded(
      "aten::_efficient_attention_forward",
      R"([[2, 1024, 32, 128], [2, 1024, 8, 128], [2, 1024, 8, 128], [], [], [], [], [], [], [], [], [], [], []])",
      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "", ""])",
      R"(["", "", "", "", "", "", "", "", "0.", "1", "True", "0.088", "", ""])"));
  REQUIRE(r.attention);
  CHECK(r.attention->q_len == 1024);
  CHECK(r.attention->causal == std::optional<bool>(true));
  CHECK(r.attention->regime == std::optional<Regime>(Regime::prefill));
  // Q and O [2, 1024, 32, 128], K and V [2, 1024, 8, 128], bf16; causal pairs 1024·1025/2 each
  CHECK(r.bytes == rel((2.0 * 2 * 1024 * 32 * 128 + 2.0 * 2 * 1024 * 8 * 128) * 2));
  CHECK(r.flops == rel(2.0 * 32 * (2 * 1024.0 * 1025 / 2) * 256));
}

TEST_CASE(
    "op table: vLLM's Inductor qk-norm + rotary kernel (wild prefill): two readings within "
    "the band",
    "[op_table]") {
  // qkv [1024, 6144], rsqrt [1024, 1] f32, q-norm weight [2048], positions [1024] int64, the
  // cos/sin cache [4096, 128], …, four [1024, 16, 64] outputs, then xnumel
  const auto r = read_ok(recorded(
      "triton_poi_fused_add_index_select_mul_rms_norm_split_split_with_sizes_sub_unsqueeze_view_3",
      R"([[1024, 6144], [1024, 1], [2048], [1024], [4096, 128], [1024, 1], [2048], [1024, 16, 64], [1024, 16, 64], [1024, 16, 64], [1024, 16, 64], []])",
      R"(["c10::BFloat16", "float", "c10::BFloat16", "long int", "c10::BFloat16", "float", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar"])",
      R"(["", "", "", "", "", "", "", "", "", "", "", "1048576"])"));
  const double whole = 1024.0 * 6144 * 2 + 2 * 1024 * 4 + 2 * 2048 * 2 + 1024 * 8 +
                       4096.0 * 128 * 2 + 4 * 1024.0 * 16 * 64 * 2;
  CHECK(r.bytes == rel(whole));
  // the table is the tensor with more rows than the index has elements (the cache, not qkv)
  REQUIRE(r.other);
  CHECK(r.other->label == "[4096, 128] a table gathered by the integer argument [1024]");
  CHECK(r.other->bytes_term.value == rel(whole - 4096.0 * 128 * 2 + 1024.0 * 128 * 2));
}

}  // namespace unit_op_table
