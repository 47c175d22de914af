// accessor/tensor_accessor.h - tt-metal's TensorAccessor at its older path.
#pragma once
#include "api/tensor/tensor_accessor.h"
