# find_package(memcoro): the imported target memcoro::memcoro and memcoro_enable().
#
#   find_package(memcoro 0.1 REQUIRED)
#   add_executable(app app.c)
#   memcoro_enable(app)                     # or: target_link_libraries(app PRIVATE memcoro::memcoro)
#   add_executable(app-serial app.c)
#   memcoro_enable(app-serial NO_MEMCORO)   # the same source, pragma checked and ignored
#
# memcoro::memcoro loads memcoro's plugins into the compiler, so the project's C
# and C++ compilers must be clang 19: anything else is refused here, at configure
# time, rather than silently compiling every marked loop serially.
# See share/doc/memcoro/install.md.

# lib/cmake/memcoro/ -> the prefix; computed, so a moved prefix still works.
get_filename_component(_memcoro_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

get_property(_memcoro_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
foreach(_memcoro_lang IN ITEMS C CXX)
  if(NOT _memcoro_lang IN_LIST _memcoro_languages)
    continue()
  endif()
  set(_memcoro_id "${CMAKE_${_memcoro_lang}_COMPILER_ID}")
  set(_memcoro_version "${CMAKE_${_memcoro_lang}_COMPILER_VERSION}")
  if(NOT _memcoro_id STREQUAL "Clang" OR NOT _memcoro_version MATCHES "^19\\.")
    set(memcoro_FOUND FALSE)
    string(CONCAT memcoro_NOT_FOUND_MESSAGE
        "memcoro's plugins run inside clang 19, but this project's ${_memcoro_lang} compiler is "
        "${_memcoro_id} ${_memcoro_version} (${CMAKE_${_memcoro_lang}_COMPILER}). Configure a fresh "
        "build directory with -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19.")
    return()
  endif()
endforeach()

foreach(_memcoro_file IN ITEMS lib/MemcoroPragma.so lib/MemcoroPasses.so lib/libmemcoro_rt.a
                               include/memcoro/memcoro.h)
  if(NOT EXISTS "${_memcoro_prefix}/${_memcoro_file}")
    set(memcoro_FOUND FALSE)
    set(memcoro_NOT_FOUND_MESSAGE "${_memcoro_prefix}/${_memcoro_file} is missing: reinstall memcoro.")
    return()
  endif()
endforeach()

include(CMakeFindDependencyMacro)
find_dependency(Threads)

if(NOT TARGET memcoro::memcoro)
  add_library(memcoro::memcoro STATIC IMPORTED)
  set_target_properties(memcoro::memcoro PROPERTIES
    IMPORTED_LOCATION "${_memcoro_prefix}/lib/libmemcoro_rt.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_memcoro_prefix}/include"
    INTERFACE_COMPILE_DEFINITIONS "__MEMCORO__=1"
    # The pass plugin is loaded twice, as memcoro-cc does: -fplugin registers its
    # -mllvm -memcoro-... options before clang parses them.
    INTERFACE_COMPILE_OPTIONS "-fplugin=${_memcoro_prefix}/lib/MemcoroPragma.so;-fpass-plugin=${_memcoro_prefix}/lib/MemcoroPasses.so;-fplugin=${_memcoro_prefix}/lib/MemcoroPasses.so"
    INTERFACE_LINK_LIBRARIES "Threads::Threads;m")
endif()

# memcoro_enable(<target> [NO_MEMCORO]): link <target> to memcoro::memcoro;
# NO_MEMCORO compiles its marked loops serially (memcoro-cc -fno-memcoro), for
# A/B builds of one source.
function(memcoro_enable target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_MEMCORO" "" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "memcoro_enable(${target}): unknown argument(s) ${arg_UNPARSED_ARGUMENTS}; "
                        "expected memcoro_enable(<target> [NO_MEMCORO])")
  endif()
  target_link_libraries(${target} PRIVATE memcoro::memcoro)
  if(arg_NO_MEMCORO)
    target_compile_options(${target} PRIVATE -fplugin-arg-memcoro-disable)
  endif()
endfunction()

unset(_memcoro_lang)
unset(_memcoro_languages)
unset(_memcoro_id)
unset(_memcoro_version)
unset(_memcoro_file)
unset(_memcoro_prefix)
