// The floating-point math ufuncs: exponentials, logarithms, powers and roots
// (ops/exp_log.hpp), trigonometric and hyperbolic functions and angle
// conversions (ops/trig.hpp). Loop resolution is in ops/math_common.hpp,
// complex kernels in ops/complex_math.hpp.
#pragma once

#include <cupp/detail/ops/exp_log.hpp>
#include <cupp/detail/ops/trig.hpp>
