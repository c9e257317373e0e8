#pragma once
// What a kernel is, so that two rounds' kernels are paired by what they do and not by what they
// are called (docs/method.md §17.1): its class, what it is in the layer (the projection the linear
// plan placed, the role its module names), where it sits (its module paths) and the weights its
// GEMM signatures read. Read from an analysed entry, or from a Top-N entry alone.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "roofline/inputs/inputs.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/predictions.hpp"

namespace roofline::outcomes {

// One signature of an analysed kernel: its weight ("" when none) and one launch of it.
struct SignatureRole {
  std::string label, shape;
  std::optional<double> mean_us;
};

struct KernelRole {
  std::string name, short_name;
  std::string display_name;  // as a person reads it (docs/method.md §16.6)
  std::string op_class;      // "" when unknown
  // What it is in the layer, sorted and unique: the projections the linear plan placed and the
  // roles its modules name ("qkv_proj", "router", "lm_head", "rms_norm"); empty when only its
  // class or its launching op speaks (a dtype change changes the op: `aten::mm` becomes
  // `_C::cutlass_scaled_mm`).
  std::vector<std::string> roles;
  std::vector<std::string> modules;  // module paths of its launches, sorted and unique
  std::string op;                    // the launching op, as said (never evidence of a role)
  // The weights its matrix signatures read, K×N ("2048×5120"), sorted and unique: a GEMM or an
  // expert GEMM only (the rows are the batch, not the role).
  std::vector<std::string> shapes;
  std::vector<SignatureRole> signatures;  // an analysed entry's, in its order
  bool analysed = false;  // from an analysed entry; else from the Top-N entry and the name rules
};

// The role an analysed entry states: its class, the roles of its display name and modules (not
// the class's or the op's word), its modules, and its signatures' weights. `topn`: the entry's own
// Top-N record, when at hand: its module, op and recorded shapes stand in for what the artifact
// does not write (an entry of one signature writes no `signatures`).
KernelRole role_of(const Prediction& p, const TopnEntry* topn = nullptr);
// The role of a Top-N entry no analysis holds: its class by the name rules (docs/method.md §7),
// its module's role and path, and the weights of its recorded shapes.
KernelRole role_of(const TopnEntry& e, const ClassRules& rules);

// "gemm · qkv_proj · weight 2048×5120": class, roles, weights; "class unknown" when nothing is.
std::string role_text(const KernelRole& r);

// The weight of a matrix product among consecutive 2-D operands, "K×N": [M×K]·[K×N] first (any
// pair), then [M×K]·[N×K]; "" when no pair reads as one. Operands that are not 2-D are skipped.
std::string matrix_shape(const std::vector<std::vector<std::int64_t>>& dims);

}  // namespace roofline::outcomes
