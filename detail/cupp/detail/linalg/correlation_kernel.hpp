// numpy.correlate's and numpy.convolve's inner loop for 1-d operands: every
// output element is the dot product of the shorter operand with a window of
// the longer one. Device arrays: one thread per output element, the shorter
// operand staged in shared memory one tile (a block's width) at a time, so
// that a block reads each of its elements from global memory once. Host
// arrays: a loop accumulating in double (complex128; integers in 64-bit
// wrapping arithmetic, which leaves the same low bits as NumPy's wrapping
// loop in the result's dtype).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/dtype.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#endif

namespace cupp::detail {

// The placement of the shorter operand over the longer one (NumPy's
// _pyarray_correlate): output k is sum over j of x[k - n_left + j] * y[j],
// j within both operands; `length` outputs.
struct correlate_geometry {
  index_t nx = 0, ny = 0, n_left = 0, length = 0;
};

inline correlate_geometry correlate_layout(index_t nx, index_t ny, int mode) {
  // mode: 0 valid, 1 same, 2 full, as NumPy numbers them.
  correlate_geometry g{nx, ny, 0, nx - ny + 1};
  if (mode == 1) {
    g.n_left = ny / 2;
    g.length = nx;
  } else if (mode == 2) {
    g.n_left = ny - 1;
    g.length = nx + ny - 1;
  }
  return g;
}

// The accumulator of one output element: wide on the host (float64,
// complex128), the operand's own precision on the device except float16
// and bfloat16 (float32), and 64-bit unsigned wrapping arithmetic for
// integers and bool (bool's or-of-ands is a nonzero count).
template <class T, bool Device>
struct correlate_accumulator {
  using type = std::conditional_t<
      is_complex_type_v<T>,
      std::conditional_t<Device && std::is_same_v<T, complex64>, complex64, complex128>,
      std::conditional_t<is_integer_v<T> || is_bool_v<T>, std::uint64_t,
                         std::conditional_t<Device && !std::is_same_v<T, double>, float, double>>>;
};
template <class T, bool Device>
using correlate_acc_t = typename correlate_accumulator<T, Device>::type;

template <class Acc, class T>
CUPP_HD inline Acc correlate_widen(T v, bool conjugate) {
  if constexpr (std::is_same_v<Acc, std::uint64_t>) {
    if constexpr (is_bool_v<T>)
      return v ? 1u : 0u;
    else if constexpr (std::is_signed_v<T>)
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    else
      return static_cast<std::uint64_t>(v);
  } else if constexpr (is_complex_type_v<Acc>) {
    const Acc w = convert<Acc>(v);
    return conjugate ? Acc(w.real(), -w.imag()) : w;
  } else {
    return convert<Acc>(v);
  }
}

template <class T, class Acc>
CUPP_HD inline T correlate_narrow(Acc acc) {
  if constexpr (is_bool_v<T>)
    return acc != 0;
  else if constexpr (std::is_same_v<Acc, std::uint64_t>)
    return static_cast<T>(acc);
  else
    return convert<T>(acc);
}

// The j range that output k reads: within y, and x[k - n_left + j] within x.
CUPP_HD inline index_t correlate_first_j(const correlate_geometry& g, index_t k) {
  return g.n_left - k > 0 ? g.n_left - k : 0;
}
CUPP_HD inline index_t correlate_end_j(const correlate_geometry& g, index_t k) {
  const index_t e = g.nx - k + g.n_left;
  return e < g.ny ? e : g.ny;
}

// Operands as pointers with element strides (negative for a reversed view);
// the result written reversed when `reversed` (NumPy's swapped operands).
template <class T>
struct correlate_operands {
  const T* x;
  index_t x_stride;
  bool x_conj;
  const T* y;
  index_t y_stride;
  bool y_conj;
  T* out;
  bool reversed;
};

template <class T>
void host_correlate(const correlate_operands<T>& o, const correlate_geometry& g) {
  using Acc = correlate_acc_t<T, false>;
  for (index_t k = 0; k < g.length; ++k) {
    Acc acc = Acc(0);
    const index_t end = correlate_end_j(g, k);
    for (index_t j = correlate_first_j(g, k); j < end; ++j)
      acc += correlate_widen<Acc>(o.x[(k - g.n_left + j) * o.x_stride], o.x_conj) *
             correlate_widen<Acc>(o.y[j * o.y_stride], o.y_conj);
    o.out[o.reversed ? g.length - 1 - k : k] = correlate_narrow<T>(acc);
  }
}

#if defined(__CUDACC__)

inline constexpr int correlate_threads = 256;

template <class T>
__global__ void __launch_bounds__(correlate_threads)
    correlate_kernel(correlate_operands<T> o, correlate_geometry g) {
  using Acc = correlate_acc_t<T, true>;
  // Raw bytes: complex and half types have constructors, which __shared__
  // arrays cannot run.
  __shared__ alignas(16) unsigned char staged[correlate_threads * sizeof(Acc)];
  Acc* tile = reinterpret_cast<Acc*>(staged);
  const index_t first_k = static_cast<index_t>(blockIdx.x) * correlate_threads;
  const index_t k = first_k + threadIdx.x;
  const index_t block_stop = first_k + correlate_threads;
  const index_t last_k = (block_stop < g.length ? block_stop : g.length) - 1;
  // The union of the block's j ranges: every tile some thread needs.
  const index_t block_begin = correlate_first_j(g, last_k);
  const index_t block_end = correlate_end_j(g, first_k);
  const index_t my_begin = correlate_first_j(g, k), my_end = correlate_end_j(g, k);
  Acc acc = Acc(0);
  for (index_t base = block_begin; base < block_end; base += correlate_threads) {
    const index_t j = base + threadIdx.x;
    if (j < block_end) tile[threadIdx.x] = correlate_widen<Acc>(o.y[j * o.y_stride], o.y_conj);
    __syncthreads();
    if (k < g.length) {
      const index_t tile_end = base + correlate_threads;
      const index_t begin = base > my_begin ? base : my_begin;
      const index_t end = tile_end < my_end ? tile_end : my_end;
      const T* xs = o.x + (k - g.n_left) * o.x_stride;
      for (index_t jj = begin; jj < end; ++jj)
        acc += correlate_widen<Acc>(xs[jj * o.x_stride], o.x_conj) * tile[jj - base];
    }
    __syncthreads();
  }
  if (k < g.length) o.out[o.reversed ? g.length - 1 - k : k] = correlate_narrow<T>(acc);
}

template <class T>
void device_correlate(const correlate_operands<T>& o, const correlate_geometry& g, int device) {
  const index_t blocks = (g.length + correlate_threads - 1) / correlate_threads;
  correlate_kernel<T><<<static_cast<unsigned>(blocks), correlate_threads, 0,
                        cuda::detail::current_stream_impl(device)->handle>>>(o, g);
  cuda::check_last_launch("cupp::correlate kernel");
}

#endif

// Runs the correlation of x and y into out (length g.length, contiguous or
// not: out's element stride is 1 here because the caller allocates it).
template <class T, class S>
void run_correlate(const ndarray<T, S>& x, bool x_conj, const ndarray<T, S>& y, bool y_conj,
                   const ndarray<T, S>& out, bool reversed, const correlate_geometry& g) {
  const correlate_operands<T> o{x.data(),
                                x.strides()[0] / static_cast<index_t>(sizeof(T)),
                                x_conj,
                                y.data(),
                                y.strides()[0] / static_cast<index_t>(sizeof(T)),
                                y_conj,
                                out.data(),
                                reversed};
  if (g.length == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    device_correlate(o, g, out.device_id());
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    host_correlate(o, g);
  }
}

}  // namespace cupp::detail
