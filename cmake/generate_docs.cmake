# Writes the man page and the shell completions by running the built roofline, which prints them
# from the same CLI11 App that parses its command line (src/roofline/cli/cli_docs.hpp). A failed run
# leaves no half-written file behind.
#   cmake -DROOFLINE=<binary> -DOUT=<folder> [-DGZIP=<gzip>] -P generate_docs.cmake
# writes OUT/roofline.1 (and OUT/roofline.1.gz with GZIP), OUT/completions/roofline (bash) and
# OUT/completions/_roofline (zsh).
cmake_minimum_required(VERSION 3.25)

function(roofline_generate out)
  execute_process(COMMAND ${ROOFLINE} ${ARGN}
                  OUTPUT_FILE ${OUT}/${out}.tmp ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    file(REMOVE ${OUT}/${out}.tmp)
    message(FATAL_ERROR "roofline ${ARGN} failed (${rc}): ${err}")
  endif()
  file(RENAME ${OUT}/${out}.tmp ${OUT}/${out})
endfunction()

file(MAKE_DIRECTORY ${OUT}/completions)
roofline_generate(roofline.1 --help-man)
roofline_generate(completions/roofline --completion bash)
roofline_generate(completions/_roofline --completion zsh)
if(GZIP)
  # -n: no name or time stamp in the header, so the package is reproducible.
  execute_process(COMMAND ${GZIP} -9 -n -c ${OUT}/roofline.1
                  OUTPUT_FILE ${OUT}/roofline.1.gz RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip of roofline.1 failed (${rc})")
  endif()
endif()
