# Writes a C++ file that holds the shipped data files as string constants.
# Invoked at build time: cmake -DOUT=... -DPEAKS=... -DCLASSES=... -DOPS=... -DBACKENDS=...
#                        -DTARGET_EFF=... -DOP_TABLE=... -DMEASURE=... -P embed_data.cmake
file(READ "${PEAKS}" peaks_text)
file(READ "${CLASSES}" classes_text)
file(READ "${OPS}" ops_text)
file(READ "${BACKENDS}" backends_text)
file(READ "${TARGET_EFF}" target_eff_text)
file(READ "${OP_TABLE}" op_table_text)
file(READ "${MEASURE}" measure_text)
set(delim "RL_EMBED")
foreach(text IN ITEMS "${peaks_text}" "${classes_text}" "${ops_text}" "${backends_text}"
                   "${target_eff_text}" "${op_table_text}" "${measure_text}")
  string(FIND "${text}" ")${delim}" found)
  if(NOT found EQUAL -1)
    message(FATAL_ERROR "embedded data file contains the raw-string delimiter")
  endif()
endforeach()
file(WRITE "${OUT}.tmp"
"// Generated from data/ by tools/embed_data.cmake. Do not edit.
#include \"roofline/inputs/embedded_data.hpp\"

namespace roofline::inputs {
std::string_view builtin_peaks_md() {
  static constexpr char text[] = R\"${delim}(${peaks_text})${delim}\";
  return {text, sizeof(text) - 1};
}
std::string_view builtin_kernel_classes() {
  static constexpr char text[] = R\"${delim}(${classes_text})${delim}\";
  return {text, sizeof(text) - 1};
}
std::string_view builtin_kernel_ops() {
  static constexpr char text[] = R\"${delim}(${ops_text})${delim}\";
  return {text, sizeof(text) - 1};
}
std::string_view builtin_kernel_backends() {
  static constexpr char text[] = R\"${delim}(${backends_text})${delim}\";
  return {text, sizeof(text) - 1};
}
std::string_view builtin_target_eff_tsv() {
  static constexpr char text[] = R\"${delim}(${target_eff_text})${delim}\";
  return {text, sizeof(text) - 1};
}
std::string_view builtin_op_table_tsv() {
  static constexpr char text[] = R\"${delim}(${op_table_text})${delim}\";
  return {text, sizeof(text) - 1};
}
std::string_view builtin_measure_peaks_py() {
  static constexpr char text[] = R\"${delim}(${measure_text})${delim}\";
  return {text, sizeof(text) - 1};
}
}  // namespace roofline::inputs
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
