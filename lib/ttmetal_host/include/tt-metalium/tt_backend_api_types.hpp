// tt-metalium/tt_backend_api_types.hpp - tt::DataFormat, where older tt-metal hosts include it.
#pragma once

#include "tt-metalium/data_types.hpp"
