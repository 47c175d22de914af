// accessor/tensor_accessor_args.h - tt-metal's TensorAccessorArgs at its older path.
#pragma once
#include "api/tensor/tensor_accessor_args.h"
