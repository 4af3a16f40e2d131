// reduction_dtypes.cu with the device kernels built for two dimensions only
// (CUPP_REDUCE_KERNEL_DIMS=2: layouts of three or more dimensions are
// materialised first): what the 3-6-d kernels cost per dtype. Seconds per
// reduction of a new dtype = (time[NDT=4] - time[NDT=1]) / 3.
// compile_time_variants: NDT=1 NDT=4
#define CUPP_REDUCE_KERNEL_DIMS 2
#include "reduction_dtypes.cu"
