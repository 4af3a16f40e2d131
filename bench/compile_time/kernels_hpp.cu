// Compile time of <cupp/kernels.hpp> alone: run-time kernels (RawKernel,
// RawModule, ElementwiseKernel, ReductionKernel through NVRTC and the kernel
// cache), nothing used. Not in <cupp/cupp.hpp>: what a unit that compiles
// kernels at run time pays.
#include <cupp/kernels.hpp>
