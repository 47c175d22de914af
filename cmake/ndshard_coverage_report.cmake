# cmake -P script behind the `coverage-report` target (NDSHARD_COVERAGE=ON).
# Inputs: PROFRAW_DIR OUT_DIR OBJECTS_FILE SOURCES LLVM_PROFDATA LLVM_COV
file(GLOB raws "${PROFRAW_DIR}/*.profraw")
if(NOT raws)
  message(FATAL_ERROR "no .profraw files in ${PROFRAW_DIR}: run ctest in this build first")
endif()
set(profdata "${OUT_DIR}/ndshard.profdata")
execute_process(COMMAND "${LLVM_PROFDATA}" merge -sparse ${raws} -o "${profdata}"
  COMMAND_ERROR_IS_FATAL ANY)

file(STRINGS "${OBJECTS_FILE}" candidates)
set(objects "")
foreach(obj IN LISTS candidates)
  if(EXISTS "${obj}")
    if(objects)
      list(APPEND objects -object "${obj}")
    else()
      list(APPEND objects "${obj}")
    endif()
  endif()
endforeach()
if(NOT objects)
  message(FATAL_ERROR "no built test executables listed in ${OBJECTS_FILE}")
endif()

execute_process(COMMAND "${LLVM_COV}" report ${objects} "-instr-profile=${profdata}" "${SOURCES}"
  COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${LLVM_COV}" show ${objects} "-instr-profile=${profdata}"
  -format=html "-output-dir=${OUT_DIR}/html" "${SOURCES}"
  COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "HTML coverage report: ${OUT_DIR}/html/index.html")
