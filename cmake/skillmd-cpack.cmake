# `cpack -G DEB` in a build folder: one package, skillmd, with what `cmake --install`
# puts there (the headers, the CMake package, the pkg-config files, the licence) and what
# was built (bin/skillmd, libskillmd.a). Build first: cmake --build build (docs/install.md).
set(CPACK_PACKAGE_NAME skillmd)
set(CPACK_PACKAGE_VENDOR "The skillmd authors")
set(CPACK_PACKAGE_CONTACT "The skillmd authors <maintainers@users.noreply.a-seed-43da76ab.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "agent skill files (SKILL.md): C++20 header-only library and the skillmd tool")
set(CPACK_PACKAGE_DESCRIPTION "skillmd reads agent skill files (SKILL.md) with a Boost.Spirit X3 parser \
and reproduces today's agents' skill systems as presets. This package holds the header-only \
C++20 library (with its CMake package and pkg-config files) and the skillmd command-line tool.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# For the library: the Boost headers and libraries of the version it was built with (the
# compile-once library, libskillmd.a, is tied to it), ICU, and a C++20 compiler.
set(_skillmd_boost "${Boost_VERSION_MAJOR}.${Boost_VERSION_MINOR}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libboost${_skillmd_boost}-dev, libboost-filesystem${_skillmd_boost}-dev, libboost-json${_skillmd_boost}-dev, libicu-dev")
# For the optional parts this build has on: their development packages, recommended.
set(_skillmd_deb_sqlite libsqlite3-dev)
set(_skillmd_deb_postgres libpq-dev)
set(_skillmd_deb_mcp libssl-dev)
set(_skillmd_deb_packages libarchive-dev git) # git: the tool and the library run it for git sources
set(_skillmd_recommends)
foreach(part IN LISTS SKILLMD_PARTS_ON)
  list(APPEND _skillmd_recommends ${_skillmd_deb_${part}})
endforeach()
list(JOIN _skillmd_recommends ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS)
# For the tool: the shared libraries bin/skillmd links, as dpkg-shlibdeps (dpkg-dev)
# finds them; appended to the list above.
find_program(SKILLMD_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(SKILLMD_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "skillmd: dpkg-shlibdeps not found (dpkg-dev): the .deb will not list bin/skillmd's shared libraries")
endif()
# What only a build makes must be in the package: cpack right after configuring fails,
# saying to build first, rather than make a package without them.
set(CPACK_SKILLMD_BINARY_DIR ${PROJECT_BINARY_DIR})
set(CPACK_SKILLMD_BUILT_FILES ${CMAKE_INSTALL_LIBDIR}/${SKILLMD_COMPILED_FILE})
skillmd_option_mode(SKILLMD_BUILD_TOOLS _skillmd_tools_mode)
if(TARGET skillmd_cli AND NOT _skillmd_tools_mode STREQUAL "OFF") # installed with the library
  list(APPEND CPACK_SKILLMD_BUILT_FILES ${CMAKE_INSTALL_BINDIR}/skillmd)
endif()
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/skillmd-cpack-check.cmake)
include(CPack)
