# Run by cpack (CPACK_PRE_BUILD_SCRIPTS) after installing into its staging folder: a
# package made before building would lack the tool and libskillmd.a (installed only when
# built), so it is refused, saying what to do.
set(_skillmd_staged "${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
if(CPACK_PACKAGING_INSTALL_PREFIX AND EXISTS "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")
  set(_skillmd_staged "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")
endif()
foreach(_skillmd_f IN LISTS CPACK_SKILLMD_BUILT_FILES)
  if(NOT EXISTS "${_skillmd_staged}/${_skillmd_f}")
    message(FATAL_ERROR "skillmd: the package would lack ${_skillmd_f}, which is not built: "
                        "run `cmake --build ${CPACK_SKILLMD_BINARY_DIR}` first, then cpack")
  endif()
endforeach()
