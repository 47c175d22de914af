// dataflow_api.h - tt-metal's data-movement API at its older path.
#pragma once
#include "api/dataflow/dataflow_api.h"
