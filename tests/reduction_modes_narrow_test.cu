// The reduction modes' cases (reduction_modes_test.cu) with the device
// kernels built for two dimensions only (CUPP_REDUCE_KERNEL_DIMS=2): every
// layout of three or more dimensions takes the materialised path, whose
// results are checked against the same float64 loop.
#define CUPP_REDUCE_KERNEL_DIMS 2
#include "reduction_modes_test.cu"
