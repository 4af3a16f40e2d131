// Every ufunc: lazy element-wise functions and operators over arrays,
// expressions and scalars, with NumPy 2's semantics.
#pragma once

#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/comparison.hpp>
#include <cupp/ufunc/logic.hpp>
#include <cupp/ufunc/math.hpp>
#include <cupp/ufunc/misc.hpp>
