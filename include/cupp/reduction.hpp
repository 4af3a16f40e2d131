// User reductions (cupp::reduction, CuPy's ReductionKernel) are declared in
// <cupp/reduction_kernel.hpp>, NumPy's reductions in <cupp/reductions.hpp>;
// this header stays for the programs that include it by this name.
#pragma once

#include <cupp/reduction_kernel.hpp>
