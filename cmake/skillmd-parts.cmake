# The optional parts of skillmd and the options that ask for them (used by the top
# CMakeLists.txt, tools/ and tests/; not installed).
#
# An AUTO/ON/OFF option: AUTO (the default for the top project) means "when what it needs
# is there"; ON means "must": configuration fails, naming the option, when it cannot be
# done; OFF means no. As a subproject (add_subdirectory, FetchContent) the default is OFF.
# A parent project may also set the option as a normal variable before add_subdirectory.

# skillmd_auto_option(<option> <doc>)
macro(skillmd_auto_option option doc)
  if(SKILLMD_IS_ROOT)
    set(_skillmd_default AUTO)
  else()
    set(_skillmd_default OFF)
  endif()
  if(NOT DEFINED ${option})
    set(${option} ${_skillmd_default} CACHE STRING "${doc}: AUTO, ON or OFF")
  endif()
  if(DEFINED CACHE{${option}})
    set_property(CACHE ${option} PROPERTY STRINGS AUTO ON OFF)
  endif()
endmacro()

# skillmd_option_mode(<option> <out>): <out> is AUTO, ON or OFF.
function(skillmd_option_mode option out)
  string(TOUPPER "${${option}}" value)
  if(value STREQUAL "AUTO")
    set(${out} AUTO PARENT_SCOPE)
  elseif(${option})
    set(${out} ON PARENT_SCOPE)
  else()
    set(${out} OFF PARENT_SCOPE)
  endif()
endfunction()

# skillmd_optional_part(<part> <option> <what> <package> [find_package arguments...])
# Sets SKILLMD_HAVE_<part> and appends to SKILLMD_PARTS_ON / SKILLMD_PARTS_OFF; for a
# part that is off, SKILLMD_WHY_<part> says why. A macro: find_package's results and
# imported targets belong to the calling directory.
macro(skillmd_optional_part part option what package)
  skillmd_option_mode(${option} _skillmd_mode)
  set(SKILLMD_HAVE_${part} OFF)
  if(_skillmd_mode STREQUAL "OFF")
    set(SKILLMD_WHY_${part} "${option}=${${option}}")
  else()
    find_package(${package} ${ARGN})
    if(${package}_FOUND)
      set(SKILLMD_HAVE_${part} ON)
    elseif(_skillmd_mode STREQUAL "ON")
      message(FATAL_ERROR "skillmd: ${option}=ON but ${what} was not found (find_package(${package}) failed). "
                          "Install it, point CMAKE_PREFIX_PATH at it, or set ${option}=AUTO or OFF.")
    else()
      set(SKILLMD_WHY_${part} "${what} not found")
    endif()
  endif()
  if(SKILLMD_HAVE_${part})
    list(APPEND SKILLMD_PARTS_ON ${part})
  else()
    list(APPEND SKILLMD_PARTS_OFF "${part} (${SKILLMD_WHY_${part}})")
  endif()
endmacro()

# skillmd_needs(<option> <what> <out> PARTS <part>... [MISSING <other missing thing>...])
# Whether <what> (the tool, the tests...) can be built: <out> is ON when every part is on
# and nothing else is missing. When something is missing: fails if <option> is ON (asked
# for explicitly), otherwise says what is left out and why.
function(skillmd_needs option what out)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "PARTS;MISSING")
  set(missing ${arg_MISSING})
  foreach(part IN LISTS arg_PARTS)
    if(NOT SKILLMD_HAVE_${part})
      list(APPEND missing "${part} (${SKILLMD_WHY_${part}})")
    endif()
  endforeach()
  if(NOT missing)
    set(${out} ON PARENT_SCOPE)
    return()
  endif()
  set(${out} OFF PARENT_SCOPE)
  list(JOIN missing ", " missing)
  skillmd_option_mode(${option} mode)
  if(mode STREQUAL "ON")
    message(FATAL_ERROR "skillmd: ${option}=ON but ${what} cannot be built, missing: ${missing}")
  elseif(mode STREQUAL "AUTO")
    message(STATUS "skillmd: not building ${what}, missing: ${missing}")
  endif()
endfunction()
