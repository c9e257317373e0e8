#pragma once
// Step 4 of the method, classify: which kind of work a kernel does, from its name. Its own layer
// (roofline_classify, on the inputs layer) so that `roofline topn` classifies kernels without
// the rest of the pipeline.

#include <string>
#include <vector>

#include "roofline/inputs.hpp"
#include "roofline/vocabulary.hpp"

namespace roofline {

struct Classification {
  OpClass op_class = OpClass::unknown;
  ClassDetail detail;  // the rule's detail, typed (class_detail.hpp); empty from name tokens
  std::string rule;    // which rule decided, for notes
  bool collective = false;
  std::vector<std::string> notes;  // the class and the rule that decided it
};
Classification classify(const TopNEntry& entry, const ClassRules& rules);

}  // namespace roofline
