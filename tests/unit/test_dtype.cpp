// dtype.hpp: spellings -> canonical key and element size (docs/method.md §5, §8, §10).
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/dtype.hpp"
#include "unit/test_helpers.hpp"

namespace unit_dtype {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

void expect_dtype(const char* spelling, const char* key, double bytes) {
  INFO("spelling: " << spelling);
  auto d = parse_dtype(spelling);
  REQUIRE(d.has_value());
  CHECK(d->key.str() == key);
  CHECK(dtype_key_from(key) == d->key);
  CHECK(d->bytes == rel(bytes));
}

}  // namespace

TEST_CASE("parse_dtype: bf16 spellings", "[dtype]") {
  expect_dtype("bf16", "bf16", 2.0);
  expect_dtype("bfloat16", "bf16", 2.0);
  expect_dtype("torch.bfloat16", "bf16", 2.0);
  expect_dtype("c10::BFloat16", "bf16", 2.0);
  expect_dtype("  BFloat16 ", "bf16", 2.0);
}

TEST_CASE("parse_dtype: fp16 is not bf16", "[dtype]") {
  expect_dtype("half", "fp16", 2.0);
  expect_dtype("float16", "fp16", 2.0);
  expect_dtype("torch.float16", "fp16", 2.0);
  expect_dtype("c10::Half", "fp16", 2.0);
  expect_dtype("fp16", "fp16", 2.0);
}

TEST_CASE("parse_dtype: fp32 and fp64", "[dtype]") {
  expect_dtype("float", "fp32", 4.0);
  expect_dtype("float32", "fp32", 4.0);
  expect_dtype("torch.float32", "fp32", 4.0);
  expect_dtype("double", "fp64", 8.0);
  expect_dtype("float64", "fp64", 8.0);
  expect_dtype("torch.float64", "fp64", 8.0);
}

TEST_CASE("parse_dtype: every fp8 spelling is fp8 at 1 byte", "[dtype]") {
  for (const char* s :
       {"float8_e4m3fnuz", "torch.float8_e4m3fnuz", "torch.float8_e4m3fn", "float8_e5m2",
        "torch.float8_e5m2fnuz", "fp8", "e4m3", "e5m2", "mxfp8", "fp8_e4m3", "FP8"})
    expect_dtype(s, "fp8", 1.0);
}

TEST_CASE("parse_dtype: fp4 spellings are half a byte", "[dtype]") {
  for (const char* s : {"mxfp4", "e2m1", "float4_e2m1fn_x2", "fp4", "torch.float4_e2m1fn_x2"})
    expect_dtype(s, "fp4", 0.5);
}

TEST_CASE("parse_dtype: integer dtypes", "[dtype]") {
  expect_dtype("int4", "int4", 0.5);
  expect_dtype("int8", "int8", 1.0);
  expect_dtype("torch.int32", "int32", 4.0);
  expect_dtype("torch.int64", "int64", 8.0);
  // int4 has no peaks-table key: a table cannot carry an int4 FLOP peak.
  CHECK_FALSE(parse_dtype("int4")->has_peak_key);
  CHECK(parse_dtype("bf16")->has_peak_key);
}

TEST_CASE("parse_dtype: unknown spellings are nullopt, not a guess", "[dtype]") {
  CHECK_FALSE(parse_dtype("").has_value());
  CHECK_FALSE(parse_dtype("auto").has_value());
  CHECK_FALSE(parse_dtype("complex128").has_value());
  CHECK(canonical_dtype_key("auto").empty());
  CHECK(canonical_dtype_key("c10::BFloat16") == DtypeKey::bf16);
  CHECK(canonical_dtype_key("torch.float8_e4m3fnuz") == DtypeKey::fp8);
}

TEST_CASE("wider_dtype: the compute dtype is the wider of activations and weights", "[dtype]") {
  const Dtype fp8 = *parse_dtype("fp8");
  const Dtype fp4 = *parse_dtype("mxfp4");
  const Dtype bf16 = *parse_dtype("bf16");
  const Dtype fp16 = *parse_dtype("half");

  SECTION("a8w4 -> fp8") {
    CHECK(wider_dtype(fp8, fp4).key == DtypeKey::fp8);
    CHECK(wider_dtype(fp4, fp8).key == DtypeKey::fp8);
  }
  SECTION("bf16 activations with fp8 weights -> bf16") {
    CHECK(wider_dtype(bf16, fp8).key == DtypeKey::bf16);
    CHECK(wider_dtype(fp8, bf16).key == DtypeKey::bf16);
  }
  SECTION("a tie keeps the first argument") {
    CHECK(wider_dtype(bf16, fp16).key == DtypeKey::bf16);
    CHECK(wider_dtype(fp16, bf16).key == DtypeKey::fp16);
  }
}

TEST_CASE("DtypeKey: a closed set whose order is its spellings' order", "[dtype]") {
  // A map keyed by DtypeKey iterates as one keyed by the spelling did: the artifact's `flops`
  // object keeps its key order.
  std::string previous;
  for (int i = DtypeKey::none; i <= DtypeKey::tf32; ++i) {
    const DtypeKey k(static_cast<DtypeKey::Id>(i));
    INFO(k.str());
    CHECK(previous <= k.str());
    if (i > DtypeKey::none) {
      CHECK(previous < k.str());
      CHECK(dtype_key_from(k.str()) == k);  // every spelling reads back
      CHECK(parse_dtype(k.str())->key == k);
    }
    previous = k.str();
  }
  CHECK_FALSE(dtype_key_from("bfloat16").has_value());  // canonical spellings only
  CHECK_FALSE(dtype_key_from("").has_value());
  CHECK(fmt::format("[{:<5}]", DtypeKey(DtypeKey::fp8)) == "[fp8  ]");
  CHECK(dtype_of(DtypeKey::fp4).bytes == rel(0.5));
  CHECK_FALSE(dtype_of(DtypeKey::int4).has_peak_key);
}

}  // namespace unit_dtype
