// The launching op's module path (docs/method.md §22.7): the `nn.Module: <Name>_<k>` python spans
// nest like the Python stack, so each span's parent is found in one sweep; an op's innermost
// enclosing span is the last one starting before it (or an ancestor of that one), and the path is
// the innermost two names, GraphModule and the model's own class left out.
#include "roofline/topn/joins/op_attribution.hpp"

#include "roofline/topn/joins/span_nesting.hpp"

#include <algorithm>
#include <tuple>
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

constexpr std::uint32_t k_unset = 0xFFFFFFFEu;  // a path not worked out yet

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// GraphModule (torch.compile's wrapper) and the model's own class (`Qwen3ForCausalLM`,
// `Qwen3Model`, `GPT2LMHeadModel`, ...) say nothing about which projection ran.
bool left_out(std::string_view name) {
  return name == "GraphModule" || ends_with(name, "ForCausalLM") ||
         ends_with(name, "ForConditionalGeneration") || ends_with(name, "Model");
}

}  // namespace

OpModules::OpModules(ChromeEvents& ev)
    : ev_(ev), parent_(nest_spans(ev.modules, [](const ModuleSpan& s) { return s.name; })) {}

std::int32_t OpModules::innermost(std::int32_t thread, double ts_us) const {
  const RecordChain<ModuleSpan>& m = ev_.modules;
  if (m.empty()) return -1;
  auto it = std::upper_bound(m.begin(), m.end(), std::pair{thread, ts_us},
                             [](const std::pair<std::int32_t, double>& k, const ModuleSpan& s) {
                               return std::tie(k.first, k.second) < std::tie(s.thread, s.begin_us);
                             });
  if (it == m.begin()) return -1;
  auto at = static_cast<std::int32_t>(std::distance(m.begin(), it) - 1);
  if (m[static_cast<std::size_t>(at)].thread != thread) return -1;
  // A span that ends before the op encloses nothing of it; its parents may.
  while (at >= 0 && ts_us >= m[static_cast<std::size_t>(at)].end_us)
    at = parent_[static_cast<std::size_t>(at)];
  return at;
}

std::string OpModules::path_from(std::int32_t at) const {
  std::vector<std::string_view> inner;  // innermost first
  for (; at >= 0 && inner.size() < 2; at = parent_[static_cast<std::size_t>(at)]) {
    const std::string& name = ev_.labels.at(ev_.modules[static_cast<std::size_t>(at)].name);
    if (!left_out(name)) inner.push_back(name);
  }
  if (inner.empty()) return {};
  return inner.size() == 1 ? std::string(inner[0])
                           : std::string(inner[1]) + "." + std::string(inner[0]);
}

std::string OpModules::path_at(std::int32_t thread, double ts_us) const {
  return path_from(innermost(thread, ts_us));
}

std::uint32_t OpModules::path_id_at(std::int32_t thread, double ts_us, ChromeEvents& ev) const {
  const std::int32_t at = innermost(thread, ts_us);
  if (at < 0) return k_no_id;
  if (path_ids_.empty()) path_ids_.assign(parent_.size(), k_unset);
  std::uint32_t& id = path_ids_[static_cast<std::size_t>(at)];
  if (id == k_unset) {
    const std::string path = path_from(at);
    id = path.empty() ? k_no_id : ev.labels.intern(path);
  }
  return id;
}

}  // namespace roofline::topn::detail
