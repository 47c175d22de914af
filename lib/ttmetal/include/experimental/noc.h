// experimental/noc.h - tt-metal's first path of the NoC object, experimental::Noc.
#pragma once
#include "api/dataflow/noc.h"
