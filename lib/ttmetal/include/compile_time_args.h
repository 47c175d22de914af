// compile_time_args.h - tt-metal's compile-time arguments at their older path.
#pragma once
#include "api/compile_time_args.h"
