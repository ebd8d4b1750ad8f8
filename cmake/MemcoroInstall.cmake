# Installing memcoro (issue 14, docs/install.md): `cmake --install build --prefix P`
# and the Debian package built by CPack (`make package`).
#
# One layout everywhere, so the driver finds its pieces relative to itself:
#   bin/       memcoro-cc, memcoro-c++, memcoro-report
#   lib/       MemcoroPasses.so, MemcoroPragma.so, libmemcoro_rt.a,
#              libmemcoro_check.a, cmake/memcoro/ (find_package),
#              pkgconfig/memcoro.pc
#   include/   memcoro/*.h
# The build tree mirrors it: bin/ and lib/ are build outputs, include/ links to
# the sources. "lib" is fixed rather than GNUInstallDirs' multiarch directory,
# which would differ between prefixes and break the driver's ../lib.

# The headers beside the build tree's driver, where the installed driver finds them.
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include ${CMAKE_BINARY_DIR}/include SYMBOLIC)

# The report tool is a standalone Python script; bin/ holds a copy so the build
# tree and the installed prefix look the same.
configure_file(${PROJECT_SOURCE_DIR}/compiler/memcoro-report.py ${CMAKE_BINARY_DIR}/bin/memcoro-report
               COPYONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
                                         GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/memcoro-cc ${CMAKE_BINARY_DIR}/bin/memcoro-c++
                 ${CMAKE_BINARY_DIR}/bin/memcoro-report
        DESTINATION bin)
install(TARGETS MemcoroPasses MemcoroPragma LIBRARY DESTINATION lib)
install(TARGETS memcoro_rt memcoro_check ARCHIVE DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memcoro DESTINATION include)

# The CMake package: a hand-written config (one imported static library and a
# helper) that computes the prefix from its own location, so a moved prefix works.
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/memcoroConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/memcoroConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/memcoroConfigVersion.cmake
        DESTINATION lib/cmake/memcoro)

configure_file(${PROJECT_SOURCE_DIR}/cmake/memcoro.pc.in ${CMAKE_BINARY_DIR}/cmake/memcoro.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/memcoro.pc DESTINATION lib/pkgconfig)

install(FILES ${PROJECT_SOURCE_DIR}/README.md
              ${PROJECT_SOURCE_DIR}/docs/install.md ${PROJECT_SOURCE_DIR}/docs/frontend.md
              ${PROJECT_SOURCE_DIR}/docs/compiler.md ${PROJECT_SOURCE_DIR}/docs/runtime.md
              ${PROJECT_SOURCE_DIR}/docs/amu.md
        DESTINATION share/doc/memcoro)

# The Debian package: the same files under /usr. The plugins are loaded into
# Debian's clang-19 (which brings libllvm19 and libclang-cpp19, whose symbols
# they use); memcoro-report needs python3.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME memcoro)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "memcoro developers <memcoro@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "hide DRAM latency by turning marked loops into interleaved coroutines")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-19 (>= 1:19.1), python3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake, pkg-config")
include(CPack)
