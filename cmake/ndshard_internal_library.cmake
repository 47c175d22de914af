# ndshard_internal_library.cmake -- the internal (not installed) static libraries of
# lib/ and tools/cli: the oracle, testkit, specio, conform, sim and the CLI library.
#
#   ndshard_add_internal_library(NAME <n> SOURCES <files...>
#                                [PUBLIC <libs...>] [PRIVATE <libs...>])
#       Static library `ndshard_<n>` with the alias `ndshard::<n>`, its public headers in
#       the calling folder's include/ (build tree only: nothing internal is installed),
#       C++20 for itself and its users, linking PUBLIC and PRIVATE as given.
include_guard(GLOBAL)

function(ndshard_add_internal_library)
  cmake_parse_arguments(_lib "" "NAME" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  if(_lib_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ndshard_add_internal_library: unexpected arguments: ${_lib_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _lib_NAME OR NOT _lib_SOURCES)
    message(FATAL_ERROR "ndshard_add_internal_library: NAME and SOURCES are required")
  endif()
  set(target ndshard_${_lib_NAME})
  add_library(${target} STATIC ${_lib_SOURCES})
  add_library(ndshard::${_lib_NAME} ALIAS ${target})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC ${_lib_PUBLIC} PRIVATE ${_lib_PRIVATE})
endfunction()
