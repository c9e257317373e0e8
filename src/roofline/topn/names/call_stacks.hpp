#pragma once
// Private to src/topn: the call stack a launch was made from (docs/method.md §22.10). A trace
// recorded with `with_stack=True` writes every Python frame as a `python_function` span named
// `file(line): function`; the frames that enclose a launch's runtime call on its thread say what
// the engine was doing. Only frames whose words say something are kept, read by the grammar of the
// name, never by one engine's line numbers:
//   - the engine's forward mode: a function named for a prefill (`forward_extend`,
//     `forward_split_prefill`, `prefill`) or a decode (`forward_decode`), and the replay of a
//     decode graph (`cuda_graph_runner.py(…): replay`, SGLang's runner of decode graphs);
//   - a collective: a function named for one (`tensor_model_parallel_all_reduce`, `all_gather`,
//     `reduce_scatter`, `all_to_all`, `broadcast`);
//   - the call site in the model's own file (a file under a `models/` folder: `deepseek_v2.py(…):
//     forward_normal_prepare`), kept as it is for the notes and read for a projection it names;
//   - the library whose Python made the launch: the package of the innermost frame in a serving or
//     kernel library (`aiter/ops/gemm_op_a8w8.py` → aiter, `…/sglang/srt/layers/…` → sglang,
//     `vllm/_custom_ops.py` → vllm; torch's and Triton's dispatch frames are looked through).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

enum class FrameRole : std::uint8_t {
  none,
  prefill,     // a forward of prefill (or mixed) tokens
  decode,      // a forward of decode requests
  collective,  // a collective's call; `says` its kind
  model_call,  // a frame in the model's own file; `says` "file: function"
  library,     // a frame in a serving or kernel library's package; `says` the package ("aiter")
};

// What one frame name says: its role and the text it contributes ("all_reduce",
// "deepseek_v2.py: forward_normal_prepare", the forward function's name).
struct FrameWords {
  FrameRole role = FrameRole::none;
  std::string says;
};
FrameWords frame_words(std::string_view name);

}  // namespace roofline::topn::detail
