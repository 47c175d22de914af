# ndshard_testing.cmake -- helpers for registering tests and fuzz targets.
#
#   ndshard_add_property(NAME <n> SOURCES <files...>
#                        [LIBRARIES <libs...>] [LABELS <labels...>] [TIMEOUT <seconds>])
#       Executable `property_<n>` (in <build>/bin) linking ndshard::ndshard, ndshard::oracle,
#       ndshard::testkit (when defined), rapidcheck_gtest + rapidcheck and GTest::gtest_main.
#       One ctest test `property.<n>`, label `property`, TIMEOUT 900 by default.
#       Sources use RC_GTEST_PROP; note that <rapidcheck/gtest.h> does not include gtest
#       itself, so include <gtest/gtest.h> first.
#
#   ndshard_add_unit_test(NAME <n> SOURCES <files...>
#                         [LIBRARIES <libs...>] [LABELS <labels...>] [TIMEOUT <seconds>])
#       GoogleTest executable `unit_<n>`, ctest test `unit.<n>`, label `unit`.
#
#   ndshard_add_fuzz_target(NAME <n> SOURCES <files...>
#                           [LIBRARIES <libs...>] [CORPUS <dir>] [LABELS <labels...>] [TIMEOUT <seconds>])
#       Executable `fuzz_<n>` defining LLVMFuzzerTestOneInput. With NDSHARD_FUZZ_ENGINE=ON on
#       clang it is compiled and linked with -fsanitize=fuzzer (libFuzzer), and every target of
#       the build is compiled with -fsanitize=fuzzer-no-link so that coverage guidance sees the
#       libraries too (generator, oracle, CLI, simulator), not only the target's own file.
#       With NDSHARD_LIB_FUZZING_ENGINE set (OSS-Fuzz / ClusterFuzzLite: $LIB_FUZZING_ENGINE,
#       the code instrumented by the caller's CXXFLAGS), it is linked with those flags instead.
#       Otherwise it gets cmake/ndshard_fuzz_main.cpp, a replay main that runs every file
#       and directory (recursively) given on the command line. With CORPUS, ctest test
#       `fuzz.<n>.corpus` (labels `fuzz` and `corpus`) replays the directory - read when the
#       test runs, so new files in it need no re-configure - in every build: with -runs=0
#       under libFuzzer, which also descends into sub-directories such as regressions/.
#
# RapidCheck parameters for ctest runs
# ------------------------------------
# The property tests are started through cmake/ndshard_rc_env.sh. ctest puts
#   NDSHARD_RC_DEFAULT_PARAMS="max_success=${NDSHARD_RC_MAX_SUCCESS} ${NDSHARD_RC_EXTRA_PARAMS}"
# into the test's environment, and the wrapper merges it key by key into RC_PARAMS: a key
# the user already has in an exported RC_PARAMS (seed=, max_success=, reproduce=, ...) is
# never overridden; missing keys are filled in from the defaults. Setting RC_PARAMS
# directly through the ENVIRONMENT test property would silently replace the user's value
# (ctest's ENVIRONMENT wins over the parent environment, and ENVIRONMENT_MODIFICATION has
# no "set if unset" operation), which is why a wrapper is used.
include_guard(GLOBAL)

set(NDSHARD_RC_MAX_SUCCESS 500 CACHE STRING
  "RapidCheck max_success for property tests run by ctest (an exported RC_PARAMS wins)")
set(NDSHARD_RC_EXTRA_PARAMS "" CACHE STRING
  "Extra default RapidCheck parameters for ctest runs, e.g. 'max_size=200' (an exported RC_PARAMS wins)")
set(NDSHARD_PROPERTY_TIMEOUT 900 CACHE STRING "ctest TIMEOUT (seconds) of each property executable")
set(NDSHARD_UNIT_TIMEOUT 300 CACHE STRING "ctest TIMEOUT (seconds) of each unit test executable")

set(_NDSHARD_TESTING_DIR ${CMAKE_CURRENT_LIST_DIR})

set(NDSHARD_LIB_FUZZING_ENGINE "" CACHE STRING
  "Link flags of an external fuzzing engine for the fuzz targets, e.g. $LIB_FUZZING_ENGINE under OSS-Fuzz (the \
caller's CXXFLAGS instrument the code); empty: libFuzzer with NDSHARD_FUZZ_ENGINE=ON, else the replay main")
if(NDSHARD_FUZZ_ENGINE_ACTIVE AND NOT NDSHARD_LIB_FUZZING_ENGINE)
  # Coverage instrumentation for everything, so libFuzzer is guided by the libraries'
  # branches as well; only the fuzz targets link the engine itself (-fsanitize=fuzzer).
  # The oracle and Boost.Multiprecision stay uninstrumented (fuzz/sancov_ignorelist.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
  if(EXISTS ${PROJECT_SOURCE_DIR}/fuzz/sancov_ignorelist.txt)
    add_compile_options(-fsanitize-coverage-ignorelist=${PROJECT_SOURCE_DIR}/fuzz/sancov_ignorelist.txt)
  endif()
endif()

if(BUILD_TESTING)
  find_package(GTest REQUIRED)
  find_package(rapidcheck CONFIG REQUIRED)
  find_program(NDSHARD_POSIX_SHELL NAMES sh REQUIRED)
endif()

# Internal: parse the common keyword arguments into _ndshard_* variables of the caller.
macro(_ndshard_parse_test_args fn)
  cmake_parse_arguments(_ndshard "" "NAME;TIMEOUT;CORPUS" "SOURCES;LIBRARIES;LABELS" ${ARGN})
  if(_ndshard_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unexpected arguments: ${_ndshard_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _ndshard_NAME)
    message(FATAL_ERROR "${fn}: NAME is required")
  endif()
  if(NOT _ndshard_NAME MATCHES "^[A-Za-z0-9_.-]+$")
    message(FATAL_ERROR "${fn}: NAME '${_ndshard_NAME}' may only contain letters, digits, '_', '.', '-'")
  endif()
  if(NOT _ndshard_SOURCES)
    message(FATAL_ERROR "${fn}(${_ndshard_NAME}): SOURCES is required")
  endif()
endmacro()

# Internal: environment shared by every test (coverage profile location).
function(_ndshard_common_env out_var name)
  set(env "")
  if(NDSHARD_COVERAGE)
    list(APPEND env "LLVM_PROFILE_FILE=${PROJECT_BINARY_DIR}/profraw/${name}-%p.profraw")
  endif()
  set(${out_var} "${env}" PARENT_SCOPE)
endfunction()

function(_ndshard_register_coverage_target target)
  set_property(GLOBAL APPEND PROPERTY NDSHARD_COVERAGE_TARGETS ${target})
endfunction()

function(ndshard_add_property)
  _ndshard_parse_test_args(ndshard_add_property ${ARGN})
  if(NOT BUILD_TESTING)
    return()
  endif()
  if(NOT TARGET ndshard::oracle)
    message(FATAL_ERROR
      "ndshard_add_property(${_ndshard_NAME}): target ndshard::oracle does not exist "
      "(lib/oracle/CMakeLists.txt must define ndshard_oracle)")
  endif()
  if(NOT _ndshard_TIMEOUT)
    set(_ndshard_TIMEOUT ${NDSHARD_PROPERTY_TIMEOUT})
  endif()

  set(target property_${_ndshard_NAME})
  add_executable(${target} ${_ndshard_SOURCES})
  target_link_libraries(${target} PRIVATE ndshard::ndshard ndshard::oracle)
  if(TARGET ndshard::testkit)
    target_link_libraries(${target} PRIVATE ndshard::testkit)
  endif()
  target_link_libraries(${target} PRIVATE
    ${_ndshard_LIBRARIES} rapidcheck_gtest rapidcheck GTest::gtest_main GTest::gtest)

  set(test property.${_ndshard_NAME})
  set(labels property ${_ndshard_LABELS})
  # See the header comment: the wrapper fills RC_PARAMS defaults without overriding the user's.
  # scripts/run_properties.py relies on the executable being the LAST word of this command.
  add_test(NAME ${test}
    COMMAND ${NDSHARD_POSIX_SHELL} ${_NDSHARD_TESTING_DIR}/ndshard_rc_env.sh $<TARGET_FILE:${target}>)
  _ndshard_common_env(env ${test})
  string(STRIP "max_success=${NDSHARD_RC_MAX_SUCCESS} ${NDSHARD_RC_EXTRA_PARAMS}" rc_defaults)
  list(APPEND env "NDSHARD_RC_DEFAULT_PARAMS=${rc_defaults}")
  set_tests_properties(${test} PROPERTIES
    LABELS "${labels}"
    TIMEOUT ${_ndshard_TIMEOUT}
    ENVIRONMENT "${env}")
  _ndshard_register_coverage_target(${target})
endfunction()

function(ndshard_add_unit_test)
  _ndshard_parse_test_args(ndshard_add_unit_test ${ARGN})
  if(NOT BUILD_TESTING)
    return()
  endif()
  if(NOT _ndshard_TIMEOUT)
    set(_ndshard_TIMEOUT ${NDSHARD_UNIT_TIMEOUT})
  endif()

  set(target unit_${_ndshard_NAME})
  add_executable(${target} ${_ndshard_SOURCES})
  target_link_libraries(${target} PRIVATE ndshard::ndshard)
  if(TARGET ndshard::testkit)
    target_link_libraries(${target} PRIVATE ndshard::testkit)
  endif()
  target_link_libraries(${target} PRIVATE ${_ndshard_LIBRARIES} GTest::gtest_main GTest::gtest)

  set(test unit.${_ndshard_NAME})
  set(labels unit ${_ndshard_LABELS})
  add_test(NAME ${test} COMMAND $<TARGET_FILE:${target}>)
  _ndshard_common_env(env ${test})
  set_tests_properties(${test} PROPERTIES
    LABELS "${labels}"
    TIMEOUT ${_ndshard_TIMEOUT})
  if(env)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${env}")
  endif()
  _ndshard_register_coverage_target(${target})
endfunction()

function(ndshard_add_fuzz_target)
  _ndshard_parse_test_args(ndshard_add_fuzz_target ${ARGN})
  if(NOT _ndshard_TIMEOUT)
    set(_ndshard_TIMEOUT ${NDSHARD_UNIT_TIMEOUT})
  endif()

  set(target fuzz_${_ndshard_NAME})
  add_executable(${target} ${_ndshard_SOURCES})
  target_link_libraries(${target} PRIVATE ndshard::ndshard ${_ndshard_LIBRARIES})
  # libfuzzer: the replay test passes libFuzzer flags; external: no replay test (the engine
  # may not take them); replay: the plain main.
  if(NDSHARD_LIB_FUZZING_ENGINE)
    separate_arguments(engine_flags UNIX_COMMAND "${NDSHARD_LIB_FUZZING_ENGINE}")
    target_link_options(${target} PRIVATE ${engine_flags})
    set(mode external)
    if(NDSHARD_LIB_FUZZING_ENGINE MATCHES "-fsanitize=fuzzer")
      set(mode libfuzzer)
    endif()
  elseif(NDSHARD_FUZZ_ENGINE_ACTIVE)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
    set(mode libfuzzer)
  else()
    target_sources(${target} PRIVATE ${_NDSHARD_TESTING_DIR}/ndshard_fuzz_main.cpp)
    set(mode replay)
  endif()
  set_property(GLOBAL APPEND PROPERTY NDSHARD_FUZZ_TARGETS ${target})

  if(BUILD_TESTING AND _ndshard_CORPUS AND NOT mode STREQUAL "external")
    cmake_path(ABSOLUTE_PATH _ndshard_CORPUS BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
    set(test fuzz.${_ndshard_NAME}.corpus)
    set(labels fuzz corpus ${_ndshard_LABELS})
    if(mode STREQUAL "libfuzzer")
      # -runs=0: execute every corpus input once (sub-directories included), then stop.
      add_test(NAME ${test} COMMAND $<TARGET_FILE:${target}> -runs=0 ${_ndshard_CORPUS})
    else()
      add_test(NAME ${test} COMMAND $<TARGET_FILE:${target}> ${_ndshard_CORPUS})
    endif()
    _ndshard_common_env(env ${test})
    set_tests_properties(${test} PROPERTIES
      LABELS "${labels}"
      TIMEOUT ${_ndshard_TIMEOUT})
    if(env)
      set_tests_properties(${test} PROPERTIES ENVIRONMENT "${env}")
    endif()
  endif()
  _ndshard_register_coverage_target(${target})
endfunction()

# Called once at the end of the top-level CMakeLists.txt.
# With NDSHARD_COVERAGE=ON: target `coverage-report` merges <build>/profraw/*.profraw (written
# by `ctest`) and prints an llvm-cov summary of lib/include, plus HTML in <build>/coverage/html.
function(ndshard_finalize_testing)
  if(NOT NDSHARD_COVERAGE)
    return()
  endif()
  get_property(targets GLOBAL PROPERTY NDSHARD_COVERAGE_TARGETS)
  set(objects "")
  foreach(t IN LISTS targets)
    string(APPEND objects "$<TARGET_FILE:${t}>\n")
  endforeach()
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/coverage/objects-$<CONFIG>.txt CONTENT "${objects}")

  string(REGEX MATCH "^[0-9]+" clang_major "${CMAKE_CXX_COMPILER_VERSION}")
  find_program(NDSHARD_LLVM_PROFDATA NAMES llvm-profdata-${clang_major} llvm-profdata REQUIRED)
  find_program(NDSHARD_LLVM_COV NAMES llvm-cov-${clang_major} llvm-cov REQUIRED)
  add_custom_target(coverage-report
    COMMAND ${CMAKE_COMMAND}
      -DPROFRAW_DIR=${PROJECT_BINARY_DIR}/profraw
      -DOUT_DIR=${PROJECT_BINARY_DIR}/coverage
      -DOBJECTS_FILE=${PROJECT_BINARY_DIR}/coverage/objects-$<CONFIG>.txt
      -DSOURCES=${PROJECT_SOURCE_DIR}/lib/include
      -DLLVM_PROFDATA=${NDSHARD_LLVM_PROFDATA}
      -DLLVM_COV=${NDSHARD_LLVM_COV}
      -P ${_NDSHARD_TESTING_DIR}/ndshard_coverage_report.cmake
    USES_TERMINAL
    COMMENT "Merging coverage profiles (run ctest first)")
endfunction()
