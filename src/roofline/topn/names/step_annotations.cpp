// Step annotation names (docs/method.md §22.7): vLLM's execute_…context_…generation_… in its three
// spellings, SGLang's step[…] and ATOM's prefill[…] / decode[…]; and capture_<size>_<mode>.
#include "roofline/topn/names/step_annotations.hpp"

#include <cctype>
#include <vector>
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

bool step_digit(char c) {
  return c >= '0' && c <= '9';
}
bool step_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Digits at `at` as a number; advances `at`. False when there is no digit (at most 15 digits,
// so the value is exact in a double).
bool read_count(std::string_view s, std::size_t& at, double& out) {
  const std::size_t begin = at;
  std::int64_t v = 0;
  while (at < s.size() && step_digit(s[at]) && at - begin < 15) v = v * 10 + (s[at++] - '0');
  if (at == begin || (at < s.size() && step_digit(s[at]))) return false;
  out = static_cast<double>(v);
  return true;
}

// A whole value that is a count: "8155".
std::optional<double> whole_count(std::string_view s) {
  std::size_t at = 0;
  double v = 0;
  if (!read_count(s, at, v) || at != s.size()) return std::nullopt;
  return v;
}

// vLLM's part inside the parentheses: `<Σq>`, `<Σq>_<Σq²>`, or `sq<n>sk<n>sqsq<n>sqsk<n>` (keys
// in any order; unknown keys ignored). False when it is none of these.
bool parse_vllm_part(std::string_view s, StepPart& part) {
  if (s.empty()) return false;
  std::size_t at = 0;
  double v = 0;
  if (step_digit(s[0])) {
    if (!read_count(s, at, v)) return false;
    part.sum_q = v;
    if (at == s.size()) return true;
    if (s[at] != '_') return false;
    ++at;
    if (!read_count(s, at, v) || at != s.size()) return false;
    part.sum_q2 = v;
    return true;
  }
  while (at < s.size()) {
    const std::size_t key_begin = at;
    while (at < s.size() && step_alpha(s[at])) ++at;
    const std::string_view key = s.substr(key_begin, at - key_begin);
    if (key.empty() || !read_count(s, at, v)) return false;
    if (key == "sq") part.sum_q = v;
    if (key == "sk") part.sum_kv = v;
    if (key == "sqsq") part.sum_q2 = v;
    if (key == "sqsk") part.sum_qkv = v;
  }
  return true;
}

// `<label>_<n>(<part>)` at or after `from`; `at` is left after the ')'.
bool parse_vllm_section(std::string_view name, std::string_view label, std::size_t from,
                        std::size_t& at, StepPart& part) {
  const std::size_t p = name.find(label, from);
  if (p == std::string_view::npos) return false;
  at = p + label.size();
  double requests = 0;
  if (!read_count(name, at, requests) || at >= name.size() || name[at] != '(') return false;
  const std::size_t close = name.find(')', at);
  if (close == std::string_view::npos) return false;
  if (!parse_vllm_part(name.substr(at + 1, close - at - 1), part)) return false;
  part.requests = requests;
  at = close + 1;
  return true;
}

StepNameParse parse_vllm(std::string_view name) {
  StepNameParse out;
  out.kind = StepNameKind::malformed;
  StepName& s = out.step;
  s.style = StepStyle::vllm;
  std::size_t at = 7;  // after "execute"
  if (at + 1 < name.size() && name[at] == '_' && step_digit(name[at + 1])) {
    std::size_t p = at + 1;
    double tokens = 0;
    if (read_count(name, p, tokens) && p < name.size() && name[p] == '_') s.tokens = tokens;
  }
  if (!parse_vllm_section(name, "context_", at, at, s.context)) return out;
  if (!parse_vllm_section(name, "generation_", at, at, s.generation)) return out;
  out.kind = StepNameKind::step;
  return out;
}

struct Field {
  std::string_view key, value;
};

// `key=value` fields separated by spaces; a value may be a bracketed list holding spaces. Bare
// words are returned with an empty key.
std::vector<Field> split_fields(std::string_view body) {
  std::vector<Field> out;
  std::size_t at = 0;
  while (at < body.size()) {
    while (at < body.size() && body[at] == ' ') ++at;
    if (at >= body.size()) break;
    const std::size_t begin = at;
    while (at < body.size() && body[at] != ' ' && body[at] != '=') ++at;
    Field f;
    if (at < body.size() && body[at] == '=') {
      f.key = body.substr(begin, at - begin);
      const std::size_t v = ++at;
      if (at < body.size() && body[at] == '[') {
        const std::size_t close = body.find(']', at);
        at = close == std::string_view::npos ? body.size() : close + 1;
      } else {
        while (at < body.size() && body[at] != ' ') ++at;
      }
      f.value = body.substr(v, at - v);
    } else {
      f.value = body.substr(begin, at - begin);
    }
    out.push_back(f);
  }
  return out;
}

// A count with an optional `/padded` suffix: "117/128".
bool parse_padded(std::string_view v, double& real, std::optional<double>& padded) {
  const std::size_t slash = v.find('/');
  const auto r = whole_count(v.substr(0, slash));
  if (!r) return false;
  real = *r;
  if (slash != std::string_view::npos) {
    const auto p = whole_count(v.substr(slash + 1));
    if (!p) return false;
    padded = p;
  }
  return true;
}

// `[7803, 6918]`: the sum of the list.
bool parse_list_sum(std::string_view v, double& sum) {
  if (v.size() < 2 || v.front() != '[' || v.back() != ']') return false;
  sum = 0;
  std::size_t at = 1;
  bool any = false;
  while (at + 1 < v.size()) {
    while (at + 1 < v.size() && (v[at] == ' ' || v[at] == ',')) ++at;
    if (at + 1 >= v.size()) break;
    double x = 0;
    if (!read_count(v, at, x)) return false;
    sum += x;
    any = true;
  }
  return any;
}

enum class BracketKind : std::uint8_t { decode, prefill, mixed };

// The fields a bracketed step writes, into `s` (the part they belong to by their prefix, or by
// the step's kind for ATOM's unprefixed Σ terms). False on a known key with a bad value.
bool apply_field(const Field& f, BracketKind kind, StepName& s) {
  static constexpr std::string_view k_terms[] = {"sq", "sk", "sqsq", "sqsk"};
  std::string_view key = f.key;
  StepPart* part = kind == BracketKind::decode ? &s.generation : &s.context;
  if (key.size() > 2 && (key.substr(0, 2) == "c_" || key.substr(0, 2) == "g_")) {
    part = key[0] == 'c' ? &s.context : &s.generation;
    key.remove_prefix(2);
  } else if (key == "c" || key == "g") {
    const auto n = whole_count(f.value);
    if (!n) return false;
    (key == "c" ? s.context : s.generation).requests = n;
    return true;
  } else if (key == "bs") {
    double real = 0;
    if (!parse_padded(f.value, real, s.padded)) return false;
    s.requests = real;
    return true;
  } else if (key == "tok" || key == "toks") {
    const auto n = whole_count(f.value);
    if (!n) return false;
    s.tokens = n;
    return true;
  } else if (key == "ctx") {
    double sum = 0;
    if (!parse_list_sum(f.value, sum)) return false;
    s.context.sum_kv = sum;
    return true;
  }
  for (std::string_view term : k_terms) {
    if (key != term) continue;
    const auto n = whole_count(f.value);
    if (!n) return false;
    (term == "sq"     ? part->sum_q
     : term == "sk"   ? part->sum_kv
     : term == "sqsq" ? part->sum_q2
                      : part->sum_qkv) = n;
  }
  return true;  // unknown keys are ignored
}

// Requests and Σq of the parts from the step-wide fields, where the parts do not write them.
void complete_parts(BracketKind kind, StepName& s) {
  if (kind == BracketKind::decode) {
    if (!s.generation.requests) s.generation.requests = s.requests;
    if (!s.generation.sum_q) s.generation.sum_q = s.tokens;
  } else if (kind == BracketKind::prefill) {
    if (!s.context.requests) s.context.requests = s.requests;
    if (!s.context.sum_q) s.context.sum_q = s.tokens;
  } else if (s.requests) {  // MIXED: bs = c + g
    if (s.context.requests && !s.generation.requests)
      s.generation.requests = *s.requests - *s.context.requests;
    if (s.generation.requests && !s.context.requests)
      s.context.requests = *s.requests - *s.generation.requests;
  }
}

StepNameParse parse_bracketed(std::string_view name, std::size_t open, StepStyle style) {
  StepNameParse out;
  out.kind = StepNameKind::malformed;
  StepName& s = out.step;
  s.style = style;
  std::string_view body = name.substr(open + 1);
  while (!body.empty() && body.back() == ' ') body.remove_suffix(1);
  if (body.empty() || body.back() != ']') return out;
  body.remove_suffix(1);
  std::vector<Field> fields = split_fields(body);
  BracketKind kind = BracketKind::decode;
  std::size_t first = 0;
  if (style == StepStyle::sglang) {
    if (fields.empty() || !fields[0].key.empty()) return out;
    std::string word(fields[0].value);
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (word == "DECODE")
      kind = BracketKind::decode;
    else if (word == "EXTEND" || word == "PREFILL")
      kind = BracketKind::prefill;
    else if (word == "MIXED")
      kind = BracketKind::mixed;
    else
      return out;
    first = 1;
  } else {
    kind = name.substr(0, 7) == "prefill" ? BracketKind::prefill : BracketKind::decode;
  }
  for (std::size_t i = first; i < fields.size(); ++i)
    if (!fields[i].key.empty() && !apply_field(fields[i], kind, s)) return out;
  s.prefill_kind = kind != BracketKind::decode;
  complete_parts(kind, s);
  out.kind = StepNameKind::step;
  return out;
}

bool step_name_starts(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

}  // namespace

bool StepName::prefill() const {
  if (prefill_kind) return true;
  if (context.sum_q) return *context.sum_q > 0;
  return context.requests.value_or(0.0) > 0;
}

std::optional<double> StepName::step_tokens() const {
  if (tokens) return tokens;
  std::optional<double> sum;
  if (context.sum_q) sum = *context.sum_q;
  if (auto g = generation.sum_q ? generation.sum_q : generation.requests)
    sum = sum.value_or(0.0) + *g;
  if (!sum && !prefill()) sum = requests;
  return sum;
}

std::optional<double> StepName::decode_requests() const {
  if (generation.requests) return generation.requests;
  if (!prefill() && style != StepStyle::vllm) return requests;
  return std::nullopt;
}

double StepName::rows() const {
  if (prefill()) return step_tokens().value_or(requests.value_or(0.0));
  if (auto r = decode_requests()) return *r;
  return step_tokens().value_or(0.0);
}

std::optional<double> StepName::graph_size() const {
  if (style != StepStyle::vllm && requests) return requests;
  return step_tokens();
}

void StepName::fill_from(const StepName& o) {
  const auto fill = [](std::optional<double>& a, const std::optional<double>& b) {
    if (!a) a = b;
  };
  if (style == StepStyle::vllm) style = o.style;
  fill(tokens, o.tokens);
  fill(requests, o.requests);
  fill(padded, o.padded);
  prefill_kind = prefill_kind || o.prefill_kind;
  for (auto [into, from] : {std::pair{&context, &o.context}, {&generation, &o.generation}}) {
    fill(into->requests, from->requests);
    fill(into->sum_q, from->sum_q);
    fill(into->sum_kv, from->sum_kv);
    fill(into->sum_q2, from->sum_q2);
    fill(into->sum_qkv, from->sum_qkv);
  }
}

StepNameParse parse_step_annotation(std::string_view name) {
  if (step_name_starts(name, "execute")) {
    const bool looks = name.find("context_") != std::string_view::npos ||
                       name.find("generation_") != std::string_view::npos ||
                       (name.size() > 8 && name[7] == '_' && step_digit(name[8]));
    if (!looks) return {};
    return parse_vllm(name);
  }
  if (step_name_starts(name, "step[")) return parse_bracketed(name, 4, StepStyle::sglang);
  if (step_name_starts(name, "prefill[")) return parse_bracketed(name, 7, StepStyle::atom);
  if (step_name_starts(name, "decode[")) return parse_bracketed(name, 6, StepStyle::atom);
  return {};
}

std::optional<CaptureMarkName> parse_capture_annotation(std::string_view name) {
  if (!step_name_starts(name, "capture_")) return std::nullopt;
  std::size_t at = 8;
  double size = 0;
  if (!read_count(name, at, size)) return std::nullopt;
  CaptureMarkName out;
  out.size = static_cast<std::int64_t>(size);
  if (at < name.size()) {
    if (name[at] != '_') return std::nullopt;
    out.mode = std::string(name.substr(at + 1));
  }
  return out;
}

}  // namespace roofline::topn::detail
