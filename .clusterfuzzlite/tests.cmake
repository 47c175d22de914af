# Tests of the fuzzing tooling (included from fuzz/CMakeLists.txt; label fuzz): the
# ClusterFuzzLite files agree with each other and name every target's sanitizers, and
# `scripts/fuzz.sh --add-regression` files a crash under corpus/<target>/regressions/.
# Both work on scratch copies, never on the working tree.
if(NDSHARD_BUILD_TESTS)
  find_program(NDSHARD_PYTHON3 python3)
  if(NDSHARD_PYTHON3)
    add_test(NAME fuzz.clusterfuzzlite_workflows
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_tooling.sh workflows)
    set_tests_properties(fuzz.clusterfuzzlite_workflows PROPERTIES LABELS "fuzz;clusterfuzzlite" TIMEOUT 120)
  endif()
  add_test(NAME fuzz.add_regression COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_tooling.sh add-regression)
  set_tests_properties(fuzz.add_regression PROPERTIES LABELS "fuzz" TIMEOUT 120)
endif()
