# ctest consumer.<MODE>: build and run tests/consumer/main.cpp against ndshard taken one way.
#   find_package      install ndshard (component ndshard_development) from the build tree into a
#                     scratch prefix; configure tests/consumer with CMAKE_PREFIX_PATH at it
#   add_subdirectory  configure tests/consumer, which adds the source tree NDSHARD_SOURCE_DIR
#   fetchcontent      configure tests/consumer, which declares NDSHARD_SOURCE_DIR with FetchContent
#   pkg_config        install as for find_package; no CMake: compile with the compiler and
#                     `pkg-config --cflags ndshard` (PKG_CONFIG_PATH at the prefix); check
#                     --modversion is the project's version and --libs is empty
# Every CMake consumer is configured with the packages of ndshard's own tests and tools
# disabled (CMAKE_DISABLE_FIND_PACKAGE_<P>): a REQUIRED find_package of one of them on the
# consumer path fails the configure, an optional one finds nothing. The time each
# configure takes is printed ("[consumer] configure took N ms").
# Inputs (-D): MODE NDSHARD_SOURCE_DIR NDSHARD_BINARY_DIR NDSHARD_VERSION CONSUMER_SOURCE_DIR
#              WORK_DIR CONFIG GENERATOR MAKE_PROGRAM CXX_COMPILER
foreach(var MODE NDSHARD_SOURCE_DIR NDSHARD_BINARY_DIR NDSHARD_VERSION CONSUMER_SOURCE_DIR WORK_DIR GENERATOR
            CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT MODE MATCHES "^(find_package|add_subdirectory|fetchcontent|pkg_config)$")
  message(FATAL_ERROR
    "run_consumer_test.cmake: MODE '${MODE}' is not find_package, add_subdirectory, fetchcontent or pkg_config")
endif()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()

function(run step)
  message(STATUS "[consumer] ${step}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[consumer] ${step} failed (${rc})")
  endif()
endfunction()

# Wall milliseconds since the epoch (string(TIMESTAMP) has microseconds as %f).
function(now_ms out)
  string(TIMESTAMP s "%s" UTC)
  string(TIMESTAMP f "%f" UTC)
  string(SUBSTRING "${f}" 0 3 ms)
  math(EXPR t "${s} * 1000 + 1${ms} - 1000")  # "1${ms} - 1000": a leading 0 is not octal here
  set(${out} ${t} PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "find_package" OR MODE STREQUAL "pkg_config")
  run(install "${CMAKE_COMMAND}" --install "${NDSHARD_BINARY_DIR}" --prefix "${prefix}"
    --component ndshard_development ${config_args})
endif()

if(MODE STREQUAL "pkg_config")
  find_program(PKG_CONFIG NAMES pkg-config pkgconf)
  if(NOT PKG_CONFIG)
    message(FATAL_ERROR "[consumer] pkg-config is not installed (apt-get install pkg-config)")
  endif()
  set(pcdir "${prefix}/share/pkgconfig")
  set(ENV{PKG_CONFIG_PATH} "${pcdir}")
  function(pkg_config out what)
    execute_process(COMMAND "${PKG_CONFIG}" ${what} ndshard RESULT_VARIABLE rc OUTPUT_VARIABLE text
                    ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "[consumer] pkg-config ${what} ndshard failed (${rc}): ${err}")
    endif()
    message(STATUS "[consumer] pkg-config ${what} ndshard: '${text}'")
    set(${out} "${text}" PARENT_SCOPE)
  endfunction()
  pkg_config(pcfiledir --variable=pcfiledir)
  if(NOT pcfiledir STREQUAL pcdir)
    message(FATAL_ERROR "[consumer] pkg-config found ndshard.pc in '${pcfiledir}', not the install's ${pcdir}")
  endif()
  pkg_config(version --modversion)
  if(NOT version STREQUAL NDSHARD_VERSION)
    message(FATAL_ERROR "[consumer] ndshard.pc has Version '${version}', the project is ${NDSHARD_VERSION}")
  endif()
  pkg_config(libs --libs)
  if(NOT libs STREQUAL "")
    message(FATAL_ERROR "[consumer] ndshard is header-only, but ndshard.pc has Libs '${libs}'")
  endif()
  pkg_config(cflags --cflags)
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  # Every header under the -I directories, as the CMake consumers include them.
  set(includes "")
  foreach(flag IN LISTS cflags)
    if(flag MATCHES "^-I(.+)$")
      file(GLOB_RECURSE headers RELATIVE "${CMAKE_MATCH_1}" "${CMAKE_MATCH_1}/ndshard/*.h*")
      list(SORT headers)
      foreach(h IN LISTS headers)
        string(APPEND includes "#include <${h}>\n")
      endforeach()
    endif()
  endforeach()
  if(includes STREQUAL "")
    message(FATAL_ERROR "[consumer] no ndshard header under the -I directories of '${cflags}'")
  endif()
  file(MAKE_DIRECTORY "${build}")
  file(WRITE "${build}/all_headers.cpp" "// generated: every ndshard header pkg-config points at\n${includes}")
  run(compile "${CXX_COMPILER}" -std=c++20 ${cflags} "-DNDSHARD_CONSUMER_EXPECTED_VERSION=\"${version}\""
    "${CONSUMER_SOURCE_DIR}/main.cpp" "${build}/all_headers.cpp" -o "${build}/ndshard_consumer")
  run(run "${build}/ndshard_consumer")
  return()
endif()

set(make_args "")
if(MAKE_PROGRAM)
  set(make_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
set(mode_args "-DNDSHARD_CONSUMER_MODE=${MODE}" "-DNDSHARD_EXPECTED_VERSION=${NDSHARD_VERSION}")
if(MODE STREQUAL "find_package")
  list(APPEND mode_args "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"
       "-DNDSHARD_EXPECTED_PREFIX=${prefix}")
  if(CONFIG)
    list(APPEND mode_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
  endif()
else()
  # No build type: the consumer checks that embedding ndshard did not set one.
  list(APPEND mode_args "-DNDSHARD_SOURCE_DIR=${NDSHARD_SOURCE_DIR}")
endif()
set(disabled "")
foreach(pkg Boost GTest rapidcheck CLI11 nlohmann_json benchmark Python3)
  list(APPEND disabled "-DCMAKE_DISABLE_FIND_PACKAGE_${pkg}=ON")
endforeach()

now_ms(t0)
run(configure "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
  ${make_args} "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" ${mode_args} ${disabled})
now_ms(t1)
math(EXPR took "${t1} - ${t0}")
message(STATUS "[consumer] configure took ${took} ms (${MODE})")
run(build "${CMAKE_COMMAND}" --build "${build}" ${config_args})

find_program(consumer_exe NAMES ndshard_consumer PATHS "${build}" "${build}/${CONFIG}" NO_DEFAULT_PATH REQUIRED)
run(run "${consumer_exe}")
