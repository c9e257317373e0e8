#pragma once
// What the names a trace records say: a kernel's name demangled and shortened, an op's scalars
// (docs/method.md §22.7, §22.8).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/inputs.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn {

// A mangled (`_Z…`) kernel name read back (docs/method.md §22.7).
struct DemangledName {
  std::string text;          // the demangled name; from the prefix: the qualified name alone
  bool from_prefix = false;  // no demangler read it: namespaces and name from `_ZN<len><id>…`
  std::string why;           // from_prefix: why the demangler gave nothing
};

// The demangled form of a `_Z…` name (a `.kd` suffix dropped): libiberty's reading where it reads
// it, else the qualified name its `_ZN<len><id>…` prefix spells. nullopt for a name that is not
// mangled or whose prefix names nothing. Time and memory stay bounded on any bytes.
std::optional<DemangledName> demangle_kernel_name(std::string_view name);
// The qualified name a mangled name's prefix spells ("_ZN7sgl_hip10activation18act_and_mul_
// kernelI…" -> "sgl_hip::activation::act_and_mul_kernel"), template arguments dropped; "" if none.
std::string demangle_prefix(std::string_view mangled);

// `short_name` of a (demangled) kernel name: its own identifier, without return type
// (`std::enable_if<…>::type` included), namespaces, template and argument lists; a Tensile
// `Cijk_…` name keeps its layout, type prefix and macro tile (`Cijk_Alik_Bljk_BBS_MT256x32x64`), a
// ck_tile `kentry<…>` gives its kernel class. Memcpy/memset activity names keep their words.
// Never cut.
std::string kernel_short_name(std::string_view name, GpuEventKind kind = GpuEventKind::kernel);

// An entry's names from a kernel's recorded name: as recorded, demangled (with a note when only
// its _ZN prefix could be read) and short.
void fill_entry_names(std::string_view name, GpuEventKind kind, TopnEntry& e);

// Suffixes `#2`, `#3`, … to the later entries (in order) of every short name that several share,
// so that no two entries of one Top-N have the same short name.
void make_short_names_unique(std::vector<TopnEntry>& entries);

// An op's recorded scalars (`Concrete Inputs`, docs/method.md §22.8). A scalar is a key of the
// launch's signature when it changes the work: a flag or mode (any text that is not a number) or a
// window size at the position its op records it; other numbers vary launch by launch (a growing
// max_seqlen_k, Inductor's xnumel, a fill value) and are kept as a range.
bool op_scalar_is_key(std::string_view op, std::size_t arg, std::string_view text);
// The name of a scalar position the op table of op_scalars.cpp knows, else "arg<N>".
std::string op_scalar_name(std::string_view op, std::size_t arg);
// The scalar as a number, when its text is one.
std::optional<double> op_scalar_number(std::string_view text);

}  // namespace roofline::topn
