// Build-wide settings of cupp: version, limits and the macros that mark
// functions for host and device compilation.
#pragma once

#include <cstddef>
#include <cstdint>

#define CUPP_VERSION_MAJOR 0
#define CUPP_VERSION_MINOR 1
#define CUPP_VERSION_PATCH 0

// The largest rank an ndarray can have. Shapes and strides live inline in the
// array handle (no heap allocation per view), so this bounds its size.
#ifndef CUPP_MAX_NDIM
#define CUPP_MAX_NDIM 32
#endif

#if defined(__CUDACC__)
#define CUPP_HD __host__ __device__
#define CUPP_DEVICE __device__
#else
#define CUPP_HD
#define CUPP_DEVICE
#endif

namespace cupp {

inline constexpr int max_ndim = CUPP_MAX_NDIM;
static_assert(max_ndim >= 1 && max_ndim <= 64, "CUPP_MAX_NDIM must lie in [1, 64]");

// NumPy's intp: shapes, strides (in bytes) and indices.
using index_t = std::int64_t;

}  // namespace cupp
