# Installing memcoro (issue 14).
#
# One layout everywhere, so the driver finds its pieces relative to itself:
#   bin/       memcoro-cc, memcoro-c++, memcoro-report
#   lib/       MemcoroPasses.so, MemcoroPragma.so, libmemcoro_rt.a,
#              cmake/memcoro/ (find_package), pkgconfig/memcoro.pc
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
