// experimental/circular_buffer.h - tt-metal's first path of experimental::CircularBuffer.
#pragma once
#include "api/dataflow/circular_buffer.h"
