# ctest consumer.find_package: install ndshard (component ndshard_development) from the build
# tree into a scratch prefix, then configure, build and run tests/consumer against it.
# Inputs (-D): NDSHARD_BINARY_DIR NDSHARD_VERSION CONSUMER_SOURCE_DIR WORK_DIR CONFIG
#              GENERATOR MAKE_PROGRAM CXX_COMPILER
foreach(var NDSHARD_BINARY_DIR NDSHARD_VERSION CONSUMER_SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()

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

run(install "${CMAKE_COMMAND}" --install "${NDSHARD_BINARY_DIR}" --prefix "${prefix}"
  --component ndshard_development ${config_args})

set(make_args "")
if(MAKE_PROGRAM)
  set(make_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
set(type_args "")
if(CONFIG)
  set(type_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
endif()
run(configure "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
  ${make_args} ${type_args}
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"
  "-DNDSHARD_EXPECTED_PREFIX=${prefix}"
  "-DNDSHARD_EXPECTED_VERSION=${NDSHARD_VERSION}")
run(build "${CMAKE_COMMAND}" --build "${build}" ${config_args})

find_program(consumer_exe NAMES ndshard_consumer PATHS "${build}" "${build}/${CONFIG}" NO_DEFAULT_PATH REQUIRED)
run(run "${consumer_exe}")
