# pkg-config files: skillmd.pc (the headers, Boost.Filesystem, Boost.JSON, ICU) and one
# per optional part that is on (skillmd-sqlite.pc, skillmd-postgres.pc, skillmd-mcp.pc,
# skillmd-net.pc, skillmd-packages.pc).
# They name no architecture-specific path (the library is header-only), so they go to
# ${CMAKE_INSTALL_DATADIR}/pkgconfig, and they are relocatable (prefix from ${pcfiledir}):
# the same file serves `cmake --install --prefix`, the .deb and an unpacked tree.
set(skillmd_pc_dir ${CMAKE_INSTALL_DATADIR}/pkgconfig)
file(RELATIVE_PATH SKILLMD_PC_TO_PREFIX /root/${skillmd_pc_dir} /root)
string(REGEX REPLACE "/$" "" SKILLMD_PC_TO_PREFIX "${SKILLMD_PC_TO_PREFIX}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SKILLMD_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SKILLMD_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

# Boost has no pkg-config files: name its libraries, and its folders when the compiler
# does not search them already.
set(SKILLMD_PC_BOOST_CFLAGS "")
if(Boost_INCLUDE_DIRS AND NOT Boost_INCLUDE_DIRS IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
  set(SKILLMD_PC_BOOST_CFLAGS " -I${Boost_INCLUDE_DIRS}")
endif()
set(SKILLMD_PC_BOOST_LIBS "-lboost_filesystem -lboost_json")
get_target_property(_skillmd_boost_fs Boost::filesystem LOCATION)
if(_skillmd_boost_fs)
  get_filename_component(_skillmd_boost_libdir "${_skillmd_boost_fs}" DIRECTORY)
  if(NOT _skillmd_boost_libdir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    set(SKILLMD_PC_BOOST_LIBS "-L${_skillmd_boost_libdir} ${SKILLMD_PC_BOOST_LIBS}")
  endif()
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/skillmd.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/skillmd.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/skillmd.pc DESTINATION ${skillmd_pc_dir})

set(_skillmd_pc_sqlite "sqlite3" "the database tier")
set(_skillmd_pc_postgres "libpq" "the fleet tier")
set(_skillmd_pc_mcp "libcrypto >= 3" "skills over MCP and content digests")
set(_skillmd_pc_net "libssl >= 3, libcrypto >= 3" "the HTTP server and client" "-pthread") # threads have no .pc file: the flag instead
set(_skillmd_pc_packages "libarchive, libssl >= 3, libcrypto >= 3" "installing and publishing skills" "-pthread")
foreach(SKILLMD_PC_PART IN LISTS SKILLMD_PARTS_ON)
  list(GET _skillmd_pc_${SKILLMD_PC_PART} 0 SKILLMD_PC_PART_REQUIRES)
  list(GET _skillmd_pc_${SKILLMD_PC_PART} 1 SKILLMD_PC_PART_WHAT)
  if(SKILLMD_PC_PART_REQUIRES)
    string(PREPEND SKILLMD_PC_PART_REQUIRES ", ")
  endif()
  set(SKILLMD_PC_PART_LIBS "")
  list(LENGTH _skillmd_pc_${SKILLMD_PC_PART} _skillmd_pc_n)
  if(_skillmd_pc_n GREATER 2)
    list(GET _skillmd_pc_${SKILLMD_PC_PART} 2 SKILLMD_PC_PART_LIBS)
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/skillmd-part.pc.in
                 ${PROJECT_BINARY_DIR}/pkgconfig/skillmd-${SKILLMD_PC_PART}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/skillmd-${SKILLMD_PC_PART}.pc DESTINATION ${skillmd_pc_dir})
endforeach()
