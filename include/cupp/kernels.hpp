// Run-time kernels: RawKernel and RawModule (CUDA C++ source strings
// compiled by NVRTC), and ElementwiseKernel and ReductionKernel from CuPy's
// string syntax, all through one kernel cache in memory and on disk. Not
// part of <cupp/cupp.hpp>: include it on its own and link cupp::kernels
// (NVRTC). docs/kernels.md.
#pragma once

#include <cupp/kernels/elementwise_kernel.hpp>
#include <cupp/kernels/raw_kernel.hpp>
#include <cupp/kernels/reduction_kernel.hpp>
