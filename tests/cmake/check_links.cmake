# Every relative link in the README and the docs names a file of the repository.
# Run: cmake -DROOT=<source dir> -P check_links.cmake
file(GLOB pages ${ROOT}/README.md ${ROOT}/docs/*.md ${ROOT}/benchmarks/README.md ${ROOT}/tests/fuzz/README.md)
set(broken 0)
foreach(page IN LISTS pages)
  get_filename_component(dir ${page} DIRECTORY)
  file(READ ${page} text)
  # A link's "](" becomes a marker, and square brackets (which would split CMake's
  # lists) plain characters.
  string(REPLACE "](" "@LINK@" text "${text}")
  string(REPLACE "[" "<" text "${text}")
  string(REPLACE "]" ">" text "${text}")
  string(REGEX MATCHALL "@LINK@[^)# \t\n]+" links "${text}")
  foreach(link IN LISTS links)
    string(SUBSTRING "${link}" 6 -1 target)
    if(target MATCHES "^[a-z]+:")
      continue() # https:, mailto: and the like
    endif()
    if(NOT EXISTS "${dir}/${target}")
      file(RELATIVE_PATH shown ${ROOT} ${page})
      message(SEND_ERROR "${shown}: link to ${target}, which does not exist")
      set(broken 1)
    endif()
  endforeach()
endforeach()
list(LENGTH pages n)
if(n LESS 5)
  message(FATAL_ERROR "found only ${n} pages under ${ROOT}")
endif()
