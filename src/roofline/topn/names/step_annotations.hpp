#pragma once
// Private to src/topn: step annotations in every spelling real engines write (docs/method.md §22.7)
// — the name parser, and the figures a step carries (requests, tokens, Σ terms per part).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

// One part of a step: the context (prefill) or the generation (decode) requests. Each figure is
// absent unless the annotation wrote it (Σq of a plain decode part is its request count).
struct StepPart {
  std::optional<double> requests;
  std::optional<double> sum_q;    // query (new) tokens
  std::optional<double> sum_kv;   // KV tokens, the new ones included
  std::optional<double> sum_q2;   // Σq²
  std::optional<double> sum_qkv;  // Σq·kv
  bool any() const { return requests || sum_q || sum_kv || sum_q2 || sum_qkv; }
  bool has_sigma() const { return sum_kv || sum_q2 || sum_qkv; }
};

enum class StepStyle : std::uint8_t { vllm, sglang, atom };

// What a step annotation's name says.
struct StepName {
  StepStyle style = StepStyle::vllm;
  std::optional<double> tokens;    // tokens in the step as written (execute_<N>, toks=, tok=)
  std::optional<double> requests;  // bs= (SGLang, ATOM): the real requests
  std::optional<double> padded;    // bs=117/128: the graph's padded size (128)
  bool prefill_kind = false;       // EXTEND, MIXED, prefill[...]: prefill tokens even unwritten
  StepPart context, generation;

  bool has_sigma() const { return context.has_sigma() || generation.has_sigma(); }
  // A step with prefill tokens is a prefill step (for every kernel in it).
  bool prefill() const;
  // Tokens in the step: as written, else Σq of both parts (a part's requests when Σq is absent).
  std::optional<double> step_tokens() const;
  // The rows of the step's GEMMs (docs/method.md §22.7): its tokens in prefill, its requests in
  // decode.
  double rows() const;
  // Generation (decode) requests, when known.
  std::optional<double> decode_requests() const;
  // The size a CUDA/HIP graph of this step was captured for: requests for SGLang and ATOM
  // (`bs=`), tokens for vLLM; nullopt when the name gives neither.
  std::optional<double> graph_size() const;
  // Fills every figure this name lacks from `other` (one step written by several spans).
  void fill_from(const StepName& other);
};

enum class StepNameKind : std::uint8_t { step, not_step, malformed };

struct StepNameParse {
  StepNameKind kind = StepNameKind::not_step;
  StepName step;
};

// Parses a step annotation: vLLM `execute_[<tokens>_]context_<n>(<part>)_generation_<n>(<part>)`
// with <part> `<Σq>`, `<Σq>_<Σq²>` or `sq<n>sk<n>sqsq<n>sqsk<n>`; SGLang
// `step[DECODE|EXTEND|MIXED key=value ...]`; ATOM `prefill[...]` / `decode[...]`. A name that
// starts like one of these but does not parse is `malformed` (counted and reported);
// `capture_<size>_<mode>`, `ProfilerStep#<k>` and every other name are `not_step`.
StepNameParse parse_step_annotation(std::string_view name);

// A `capture_<size>_<MODE>` annotation (the graph-capture phase of SGLang and vLLM).
struct CaptureMarkName {
  std::int64_t size = 0;
  std::string mode;
};
std::optional<CaptureMarkName> parse_capture_annotation(std::string_view name);

}  // namespace roofline::topn::detail
