// Build-wide settings of cupp: version, limits and the macros that mark
// functions for host and device compilation.
// cupp-layer: vocabulary
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

// `#pragma unroll` for loops that a host compiler sees too (CUPP_HD
// functions), which would warn about a pragma it does not know: only the
// device pass of nvcc (__CUDA_ARCH__) gets it, not nvcc's host pass.
#if defined(__CUDA_ARCH__)
#define CUPP_UNROLL _Pragma("unroll")
#else
#define CUPP_UNROLL
#endif

// A host function's body that nvcc's device pass does not see:
//   inline std::string describe(const dims& d) CUPP_HOST_BODY({ ... });
// The device pass parses every host function too, and instantiates every
// template that a host body uses (std containers, std::function, string
// formatting, the memory pools' bookkeeping), only to discard it: for the
// memory and layout headers behind ndarray.hpp that was a fifth of the
// include-only umbrella's device pass (cicc 4.3 -> 3.5 s). Device code
// cannot call a host function, so that pass needs no body; the declaration
// stays for the host functions it parses. There the body is
// `{ __builtin_unreachable(); }`. Host compilers and nvcc's host pass get the
// body itself. Only for functions that are neither templates (their bodies
// are instantiated on use anyway), constexpr nor CUPP_HD.
#if defined(__CUDA_ARCH__)
#define CUPP_HOST_BODY(...) \
  { __builtin_unreachable(); }
#else
#define CUPP_HOST_BODY(...) __VA_ARGS__
#endif

// A .cpp file (compiled by the host compiler, not nvcc) may include cupp's
// headers to hold arrays, copy them between host and device, print them
// and compute on host arrays. Where a template would launch a kernel, its
// device branch says CUPP_NEEDS_NVCC(T) under a host compiler: computing on
// device arrays there is a compile error, never a silent no-op.
#define CUPP_NEEDS_NVCC(T)                                                                   \
  static_assert(::cupp::detail::needs_nvcc<T>,                                               \
                "cupp: computing on device arrays launches CUDA kernels: compile this file " \
                "with nvcc (a .cu source, or LANGUAGE CUDA in CMake); a .cpp file may hold " \
                "device arrays, copy them to and from the host and print them")

namespace cupp::detail {
// False for every T: CUPP_NEEDS_NVCC's condition, which fails only where a
// template's device branch is used.
template <class...>
inline constexpr bool needs_nvcc = false;
}  // namespace cupp::detail

namespace cupp {

inline constexpr int max_ndim = CUPP_MAX_NDIM;
static_assert(max_ndim >= 1 && max_ndim <= 64, "CUPP_MAX_NDIM must lie in [1, 64]");

// NumPy's intp: shapes, strides (in bytes) and indices.
using index_t = std::int64_t;

namespace detail {

// Threads one SM holds on the architecture being compiled (Turing 1024; the
// Ampere, Ada and Blackwell desktop parts 1536; the data-centre parts 2048).
constexpr int sm_resident_threads() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || \
                                 __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
  return 1536;
#else
  return 2048;
#endif
}

// A launch bound's resident blocks, no more than the SM holds: ptxas ignores
// a larger request with a warning, on every kernel of that architecture.
constexpr int resident_blocks_bound(int threads, int blocks) {
  return blocks * threads <= sm_resident_threads() ? blocks : sm_resident_threads() / threads;
}

}  // namespace detail
}  // namespace cupp
