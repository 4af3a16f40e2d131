// Math that rounds the same on the host and the device. The random
// samplers must give bit-identical values on both, and neither libm nor
// CUDA's math library promise that (their functions differ by an ulp here
// and there), nor does `a * b + c`, which nvcc contracts into an FMA and the
// host compiler does not. Everything here is built from correctly rounded
// add, sub, mul, div, fma and sqrt that nothing may contract, plus exact
// operations (comparisons, integer arithmetic, bits of the representation,
// conversions), so the results agree bit for bit by construction.
//
// Accuracy (measured by tests/random_math_test.cu): float and double
// within 2 ulps of the correctly rounded result (pow within 4; loggam to a
// few ulps relative away from its zeros at 1 and 2, absolute near them).
// NaN payloads are not preserved (the device makes its NaNs canonical).
#pragma once

#include <cupp/detail/random/exact_math_core.hpp>
#include <cupp/detail/random/exact_math_exp_log.hpp>
#include <cupp/detail/random/exact_math_trig.hpp>
