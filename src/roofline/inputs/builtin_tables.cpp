// The shipped tables of data/ (compiled in by tools/embed_data.cmake), parsed once on first
// use. The build checked each of them (tools/check_data_tables.cpp): no row is dropped here.
#include "roofline/inputs/embedded_data.hpp"
#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/op_table.hpp"
#include "roofline/inputs/target_eff.hpp"

namespace roofline::inputs {

const std::vector<ClassRule>& builtin_kernel_classes_rules() {
  static const std::vector<ClassRule> rules = [] {
    auto loaded = parse_kernel_classes(builtin_kernel_classes(), "kernel_classes.tsv");
    return loaded.value.value_or(std::vector<ClassRule>{});
  }();
  return rules;
}

const std::vector<ClassRule>& builtin_kernel_ops_rules() {
  static const std::vector<ClassRule> rules = [] {
    auto loaded = parse_kernel_ops(builtin_kernel_ops(), "kernel_ops.tsv");
    return loaded.value.value_or(std::vector<ClassRule>{});
  }();
  return rules;
}

const std::vector<BackendRule>& builtin_kernel_backends_rules() {
  static const std::vector<BackendRule> rules = [] {
    auto loaded = parse_kernel_backends(builtin_kernel_backends(), "kernel_backends.tsv");
    return loaded.value.value_or(std::vector<BackendRule>{});
  }();
  return rules;
}

const std::vector<OpRow>& builtin_op_table() {
  static const std::vector<OpRow> rows = [] {
    auto loaded = parse_op_table(builtin_op_table_tsv(), "op_table.tsv");
    return loaded.value.value_or(std::vector<OpRow>{});
  }();
  return rows;
}

const TargetEffTable& builtin_target_eff() {
  static const TargetEffTable table = [] {
    auto loaded = parse_target_eff(builtin_target_eff_tsv(), "target_eff.tsv");
    return loaded.value.value_or(TargetEffTable{});
  }();
  return table;
}

}  // namespace roofline::inputs
