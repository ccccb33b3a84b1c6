# Runs the README example over the shipped skills and compares its whole standard
# output with tests/golden/readme_example.txt, where {ROOT} stands for the source tree.
execute_process(COMMAND "${EXAMPLE}" "${ROOT}/skills" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the README example exited with ${rc}")
endif()
string(REPLACE "${ROOT}" "{ROOT}" out "${out}")
file(READ "${GOLDEN}" expected)
if(NOT out STREQUAL expected)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/readme_example.actual" "${out}")
  message(FATAL_ERROR "the README example's output differs from ${GOLDEN}; it wrote readme_example.actual:\n${out}")
endif()
