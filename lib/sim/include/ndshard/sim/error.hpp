// ndshard/sim/error.hpp - what the simulated device throws.
//
// Two families, so a caller (the `ndshard sim` command) can tell a bad request from a
// bug: op_error is an std::invalid_argument like ndshard::spec_error (the request is
// wrong: bad op string, shapes that do not match), while alloc_error and noc_error are
// std::runtime_error (the device refused a placement, or some address math is wrong).
#pragma once

#include <stdexcept>
#include <string>

namespace ndshard::sim {

// "reduce_sum:3 on a rank-3 input: dim 3 is not in 0..2".
class op_error : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// A buffer that cannot be placed: it does not fit, overlaps a live buffer, or names a
// core the device does not have.
class alloc_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A NoC or host access outside every live buffer, across a buffer's end, or into a
// buffer other than the one the kernel addressed. The message names the accessing
// core, the target core, the address and the buffer.
class noc_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace ndshard::sim
