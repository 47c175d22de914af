# bench.smoke: runs ndshard_bench once over every benchmark but the 10^8-page table
# (bench/CMakeLists.txt) and fails on a crash, a non-zero exit or a benchmark that
# reports an error (SkipWithError prints "ERROR OCCURRED").
execute_process(
  COMMAND ${BENCH} --benchmark_filter=-BM_host_mapping/pages --benchmark_min_time=0.001
          --benchmark_repetitions=1
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.smoke: ndshard_bench exited with '${rc}'")
endif()
if(out MATCHES "ERROR OCCURRED")
  message(FATAL_ERROR "bench.smoke: a benchmark reported an error (see above)")
endif()
if(NOT out MATCHES "BM_nd_construct/runtime/rank:8")
  message(FATAL_ERROR "bench.smoke: the last construction benchmark did not run")
endif()
