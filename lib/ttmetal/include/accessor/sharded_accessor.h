// accessor/sharded_accessor.h - tt-metal's oldest path of its accessor header: the same
// TensorAccessor, TensorAccessorArgs and make_tensor_accessor_args / _from_args.
#pragma once
#include "api/tensor/tensor_accessor.h"
