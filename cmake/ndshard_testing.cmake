# ndshard_testing.cmake -- helpers for registering tests and fuzz targets. Included by the
# top-level CMakeLists.txt only when ndshard builds its own tests, tools, fuzzers or
# benchmarks; tests are registered only with NDSHARD_BUILD_TESTS (which finds GoogleTest
# and RapidCheck here).
#
#   ndshard_add_property(NAME <n> SOURCES <files...>
#                        [LIBRARIES <libs...>] [LABELS <labels...>] [TIMEOUT <seconds>])
#       Executable `property_<n>` (in <build>/bin) linking ndshard::ndshard, ndshard::oracle,
#       ndshard::testkit, rapidcheck_gtest + rapidcheck and GTest::gtest_main.
#       One ctest test `property.<n>`, label `property`, TIMEOUT 900 by default.
#       Sources use RC_GTEST_PROP; note that <rapidcheck/gtest.h> does not include gtest
#       itself, so include <gtest/gtest.h> first.
#
#   ndshard_add_unit_test(NAME <n> SOURCES <files...>
#                         [LIBRARIES <libs...>] [LABELS <labels...>] [TIMEOUT <seconds>])
#       GoogleTest executable `unit_<n>` linking ndshard::ndshard and LIBRARIES (a unit test
#       of the oracle must not see the testkit built on it), ctest test `unit.<n>`, label `unit`.
#
#   ndshard_add_fuzz_target(NAME <n> [SOURCES <files...>]
#                           [LIBRARIES <libs...>] [CORPUS <dir>] [LABELS <labels...>] [TIMEOUT <seconds>])
#       Executable `fuzz_<n>` defining LLVMFuzzerTestOneInput, from SOURCES (default: the
#       one file fuzz_<n>.cpp of the calling folder). With NDSHARD_FUZZ_ENGINE=ON on
#       clang it is compiled and linked with -fsanitize=fuzzer (libFuzzer), and every target of
#       the build is compiled with -fsanitize=fuzzer-no-link so that coverage guidance sees the
#       libraries too (generator, oracle, CLI, simulator), not only the target's own file.
#       With NDSHARD_LIB_FUZZING_ENGINE set (OSS-Fuzz / ClusterFuzzLite: $LIB_FUZZING_ENGINE,
#       the code instrumented by the caller's CXXFLAGS), it is linked with those flags instead.
#       Otherwise it gets cmake/ndshard_fuzz_main.cpp, a replay main that runs every file
#       and directory (recursively) given on the command line. ctest test
#       `fuzz.<n>.corpus` (labels `fuzz` and `corpus`) replays CORPUS (default:
#       corpus/fuzz_<n> at the top of the source tree, where scripts/fuzz.sh merges) - read
#       when the test runs, so new files in it need no re-configure - in every build: with
#       -runs=0 under libFuzzer, which also descends into sub-directories such as regressions/.
#
#   ndshard_sanitized_at_O0(<sources...>)
#       In a sanitizer build at -O1 (the asan preset: NDSHARD_SANITIZE, a Debug build, no
#       fuzzing engine) the listed sources of the calling folder compile at -O0. For files
#       that instantiate many accessor types: clang's optimiser over ASan+UBSan-instrumented
#       instantiations was most of that preset's build (props/accessor_fixed_b.cpp: 91 s of
#       CPU at -O1, 26 s at -O0; fuzz/fuzz_accessor_args.cpp 60 s and 16 s). Nothing is
#       checked less: at -O0 every load and store keeps its check; the tests run slower.
#
#   ndshard_generate_header(OUTPUT <file> TOOL <target> [ARGS <args...>] COMMENT <text>)
#       A custom command: the executable target TOOL writes the header OUTPUT (its folder
#       made first) as `TOOL <file> ARGS...`, again whenever TOOL is rebuilt. A target of the
#       calling folder that lists OUTPUT among its sources (or depends on it) runs it.
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

if(NDSHARD_BUILD_TESTS)
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

# Internal, for the GoogleTest executables: `target` from the caller's SOURCES, linking the
# core, the caller's LIBRARIES, then ARGN (the test framework).
function(_ndshard_add_gtest_executable fn target)
  if(NOT _ndshard_SOURCES)
    message(FATAL_ERROR "${fn}(${_ndshard_NAME}): SOURCES is required")
  endif()
  add_executable(${target} ${_ndshard_SOURCES})
  target_link_libraries(${target} PRIVATE ndshard::ndshard ${_ndshard_LIBRARIES} ${ARGN})
  _ndshard_register_coverage_target(${target})
endfunction()

# Internal: ctest test `test` running COMMAND, labelled LABELS and the caller's LABELS, with
# the caller's TIMEOUT (else DEFAULT_TIMEOUT) and the shared environment plus ENV.
function(_ndshard_register_test test)
  cmake_parse_arguments(_t "" "DEFAULT_TIMEOUT" "COMMAND;LABELS;ENV" ${ARGN})
  set(timeout ${_ndshard_TIMEOUT})
  if(NOT timeout)
    set(timeout ${_t_DEFAULT_TIMEOUT})
  endif()
  add_test(NAME ${test} COMMAND ${_t_COMMAND})
  _ndshard_common_env(env ${test})
  list(APPEND env ${_t_ENV})
  set(labels ${_t_LABELS} ${_ndshard_LABELS})
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout})
  if(env)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${env}")
  endif()
endfunction()

function(ndshard_add_property)
  _ndshard_parse_test_args(ndshard_add_property ${ARGN})
  if(NOT NDSHARD_BUILD_TESTS)
    return()
  endif()
  set(target property_${_ndshard_NAME})
  _ndshard_add_gtest_executable(ndshard_add_property ${target}
    ndshard::oracle ndshard::testkit rapidcheck_gtest rapidcheck GTest::gtest_main GTest::gtest)
  # props/CMakeLists.txt gathers these into the target `properties` (what verify.sh builds).
  set_property(GLOBAL APPEND PROPERTY NDSHARD_PROPERTY_TARGETS ${target})
  # See the header comment: the wrapper fills RC_PARAMS defaults without overriding the user's.
  # scripts/run_properties.py relies on the executable being the LAST word of this command.
  string(STRIP "max_success=${NDSHARD_RC_MAX_SUCCESS} ${NDSHARD_RC_EXTRA_PARAMS}" rc_defaults)
  _ndshard_register_test(property.${_ndshard_NAME}
    COMMAND ${NDSHARD_POSIX_SHELL} ${_NDSHARD_TESTING_DIR}/ndshard_rc_env.sh $<TARGET_FILE:${target}>
    LABELS property
    DEFAULT_TIMEOUT ${NDSHARD_PROPERTY_TIMEOUT}
    ENV "NDSHARD_RC_DEFAULT_PARAMS=${rc_defaults}")
endfunction()

function(ndshard_add_unit_test)
  _ndshard_parse_test_args(ndshard_add_unit_test ${ARGN})
  if(NOT NDSHARD_BUILD_TESTS)
    return()
  endif()
  set(target unit_${_ndshard_NAME})
  _ndshard_add_gtest_executable(ndshard_add_unit_test ${target} GTest::gtest_main GTest::gtest)
  _ndshard_register_test(unit.${_ndshard_NAME}
    COMMAND $<TARGET_FILE:${target}>
    LABELS unit
    DEFAULT_TIMEOUT ${NDSHARD_UNIT_TIMEOUT})
endfunction()

function(ndshard_add_fuzz_target)
  _ndshard_parse_test_args(ndshard_add_fuzz_target ${ARGN})
  if(NOT _ndshard_SOURCES)
    set(_ndshard_SOURCES fuzz_${_ndshard_NAME}.cpp)
  endif()
  if(NOT _ndshard_CORPUS)
    set(_ndshard_CORPUS ${PROJECT_SOURCE_DIR}/corpus/fuzz_${_ndshard_NAME})
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
  _ndshard_register_coverage_target(${target})

  if(NOT NDSHARD_BUILD_TESTS OR mode STREQUAL "external")
    return()
  endif()
  cmake_path(ABSOLUTE_PATH _ndshard_CORPUS BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set(runs "")
  if(mode STREQUAL "libfuzzer")
    set(runs -runs=0)  # execute every corpus input once (sub-directories included), then stop
  endif()
  _ndshard_register_test(fuzz.${_ndshard_NAME}.corpus
    COMMAND $<TARGET_FILE:${target}> ${runs} ${_ndshard_CORPUS}
    LABELS fuzz corpus
    DEFAULT_TIMEOUT ${NDSHARD_UNIT_TIMEOUT})
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

function(ndshard_generate_header)
  cmake_parse_arguments(_gen "" "OUTPUT;TOOL;COMMENT" "ARGS" ${ARGN})
  if(NOT _gen_OUTPUT OR NOT _gen_TOOL OR _gen_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ndshard_generate_header: OUTPUT <file> TOOL <target> [ARGS ...] COMMENT <text>")
  endif()
  get_filename_component(_dir ${_gen_OUTPUT} DIRECTORY)
  add_custom_command(
    OUTPUT ${_gen_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_dir}
    COMMAND ${_gen_TOOL} ${_gen_OUTPUT} ${_gen_ARGS}
    DEPENDS ${_gen_TOOL}
    COMMENT "${_gen_COMMENT}")
endfunction()

function(ndshard_sanitized_at_O0)
  if(NDSHARD_SANITIZE AND CMAKE_BUILD_TYPE STREQUAL "Debug" AND NOT NDSHARD_FUZZ_ENGINE_ACTIVE
     AND NOT NDSHARD_LIB_FUZZING_ENGINE)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -O0)
  endif()
endfunction()
