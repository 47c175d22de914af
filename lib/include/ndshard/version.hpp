// ndshard/version.hpp - the library's version as macros, for #if tests in a consumer and
// for `ndshard --version`. Freestanding: no includes, usable from device code too.
//
// Kept equal to project(ndshard VERSION ...) in the top-level CMakeLists.txt, which stays
// the one source of the number: ctest `unit.cli_version` compiles this header with
// -DNDSHARD_EXPECTED_VERSION="${PROJECT_VERSION}" and fails when the two differ.
#pragma once

#define NDSHARD_VERSION_MAJOR 0
#define NDSHARD_VERSION_MINOR 1
#define NDSHARD_VERSION_PATCH 0

// "0.1.0": the three numbers above, joined by the preprocessor so they cannot drift apart.
#define NDSHARD_VERSION_STRINGIFY_(x) #x
#define NDSHARD_VERSION_JOIN_(a, b, c) \
    NDSHARD_VERSION_STRINGIFY_(a) "." NDSHARD_VERSION_STRINGIFY_(b) "." NDSHARD_VERSION_STRINGIFY_(c)
#define NDSHARD_VERSION_STRING \
    NDSHARD_VERSION_JOIN_(NDSHARD_VERSION_MAJOR, NDSHARD_VERSION_MINOR, NDSHARD_VERSION_PATCH)

// One number for comparisons: 0.1.0 -> 100, 1.2.3 -> 10203.
#define NDSHARD_VERSION (NDSHARD_VERSION_MAJOR * 10000 + NDSHARD_VERSION_MINOR * 100 + NDSHARD_VERSION_PATCH)
