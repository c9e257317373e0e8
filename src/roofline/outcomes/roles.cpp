// What a kernel is, read from an analysed entry or a Top-N entry (docs/method.md §17.1). Pure.
#include "roofline/outcomes/roles.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/outcomes/layer.hpp"

namespace roofline::outcomes {

namespace {

void sort_unique(std::vector<std::string>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// The class as written, "" for none or unknown.
std::string known_class(const std::string& c) {
  return c == "unknown" ? "" : c;
}

// A GEMM or an expert GEMM: the classes whose signatures' weights say what they are.
bool matrix_class(const std::string& c) {
  return c == "gemm" || c == "moe";
}

// The role a display name starts with ("qkv_proj / o_proj · nvjet…" -> {qkv_proj, o_proj}),
// without a duplicate's " #rank"; none when the name is only a kernel tag.
std::vector<std::string> display_roles(const std::string& display) {
  const auto dot = display.find(" · ");
  if (dot == std::string::npos) return {};
  std::string prefix = display.substr(0, dot);
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= prefix.size();) {
    const std::size_t end = std::min(prefix.find(" / ", at), prefix.size());
    if (end > at) out.push_back(prefix.substr(at, end - at));
    at = end + 3;
  }
  return out;
}

// A role that says what the kernel is: not the class's word, not the launching op's.
bool says_what(const std::string& role, const std::string& op_word) {
  return !role.empty() && !is_class_role(role) && role != op_word;
}

void add_shape(KernelRole& r, const std::vector<std::vector<std::int64_t>>& dims) {
  if (!matrix_class(r.op_class)) return;
  if (std::string s = matrix_shape(dims); !s.empty()) r.shapes.push_back(std::move(s));
}

}  // namespace

std::string matrix_shape(const std::vector<std::vector<std::int64_t>>& dims) {
  auto two_d = [](const std::vector<std::int64_t>& d) { return d.size() == 2; };
  for (std::size_t i = 0; i + 1 < dims.size(); ++i)
    if (two_d(dims[i]) && two_d(dims[i + 1]) && dims[i][1] == dims[i + 1][0])
      return fmt::format("{}×{}", dims[i + 1][0], dims[i + 1][1]);
  for (std::size_t i = 0; i + 1 < dims.size(); ++i)
    if (two_d(dims[i]) && two_d(dims[i + 1]) && dims[i][1] == dims[i + 1][1])
      return fmt::format("{}×{}", dims[i + 1][1], dims[i + 1][0]);
  return "";
}

namespace {

// The weights of a Top-N record's recorded shapes (every signature, else its one `shapes`).
void add_topn_shapes(KernelRole& r, const TopnEntry& e) {
  for (const auto& sig : e.signatures) add_shape(r, sig);
  if (e.signatures.empty()) add_shape(r, e.shapes);
}

}  // namespace

KernelRole role_of(const Prediction& p, const TopnEntry* topn) {
  KernelRole r;
  r.name = p.name;
  r.short_name = p.short_name;
  r.display_name = p.display_name;
  r.op_class = known_class(p.op_class);
  r.op = p.op;
  r.analysed = true;
  // The display name's role came from the linear plan, else the module, else the op, else the
  // class (docs/method.md §16.6): only the first two say what the kernel is.
  const std::string op_word = kernel_role("", p.op);
  const bool module_speaks = !kernel_role(p.module, "").empty();
  for (auto& role : display_roles(p.display_name))
    if (says_what(role, module_speaks ? "" : op_word)) r.roles.push_back(role);
  if (!p.module.empty()) r.modules.push_back(p.module);
  for (const SignatureRef& s : p.signatures) {
    r.signatures.push_back(SignatureRole{
        s.label, matrix_class(r.op_class) ? matrix_shape(s.dims) : std::string(), s.mean_us});
    if (!s.module.empty()) r.modules.push_back(s.module);
    if (std::string role = kernel_role(s.module, ""); says_what(role, ""))
      r.roles.push_back(std::move(role));
    add_shape(r, s.dims);
  }
  if (topn) {
    if (r.op.empty()) r.op = topn->op;
    if (r.modules.empty() && !topn->module.empty()) r.modules.push_back(topn->module);
    if (r.shapes.empty()) add_topn_shapes(r, *topn);
  }
  sort_unique(r.roles);
  sort_unique(r.modules);
  sort_unique(r.shapes);
  return r;
}

KernelRole role_of(const TopnEntry& e, const ClassRules& rules) {
  KernelRole r;
  r.name = e.name;
  r.short_name = e.short_name;
  r.op_class = known_class(to_string(classify::classify(e, rules).op_class));
  r.op = e.op;
  if (!e.module.empty()) r.modules.push_back(e.module);
  if (std::string role = kernel_role(e.module, ""); says_what(role, ""))
    r.roles.push_back(std::move(role));
  add_topn_shapes(r, e);
  sort_unique(r.shapes);
  const std::string tag = kernel_tag(e.short_name, e.demangled, e.name);
  r.display_name = r.roles.empty() ? tag : fmt::format("{} · {}", r.roles.front(), tag);
  return r;
}

std::string role_text(const KernelRole& r) {
  std::string out = r.op_class.empty() ? "class unknown" : r.op_class;
  std::string roles;
  for (const auto& role : r.roles) roles += (roles.empty() ? "" : " / ") + role;
  if (!roles.empty()) out += " · " + roles;
  std::string shapes;
  for (const auto& s : r.shapes) shapes += (shapes.empty() ? "" : ", ") + s;
  if (!shapes.empty()) out += " · weight " + shapes;
  return out;
}

}  // namespace roofline::outcomes
