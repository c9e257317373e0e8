// The compiled half of {fmt}, built once into the binary. Debian's libfmt-dev ships fmt only as a
// shared library; a static roofline would otherwise use fmt header-only, which compiles fmt's
// formatting core into every translation unit that formats anything (about 2 s per file, half of
// the whole build). Every other file includes <fmt/format.h> without FMT_HEADER_ONLY and links
// the definitions below: the non-template functions of format-inl.h, plus the explicit
// instantiations fmt's ABI declares extern for char.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
template FMT_API void vformat_to(buffer<char>&, string_view,
                                 basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

}  // namespace detail
FMT_END_NAMESPACE
