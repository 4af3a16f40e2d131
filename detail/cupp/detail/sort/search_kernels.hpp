// The kernels behind searchsorted, digitize and bincount: one thread per
// query searching the sorted array in global memory, the monotonicity
// check of digitize's bins (one flag read back), and bincount's binner.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/sort/search_binning.hpp>
#include <cupp/detail/sort/search_index.hpp>
#include <cupp/detail/sort/search_order.hpp>
#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::search {

// For each of m queries: its bound in `a`, or a.n minus it when `from_end`
// (digitize's decreasing bins, searched reversed).
template <bool Right, class K, class View, class V>
CUPP_HD inline std::int64_t query(const View& a, const V* v, index_t i, bool from_end) {
  const index_t r = bound<Right>(a, to_key<K>(v[i]));
  return from_end ? a.n - r : r;
}

template <bool Right, class K, class View, class V>
void host_search(const View& a, const V* v, std::int64_t* out, index_t m, bool from_end) {
  for (index_t i = 0; i < m; ++i) out[i] = query<Right, K>(a, v, i, from_end);
}

// NumPy's check_array_monotonic on values as double: 1 increasing (or all
// equal, or empty), -1 decreasing, 0 neither.
template <class T>
int host_monotonicity(const T* b, index_t n, index_t stride) {
  if (n == 0) return 1;
  const double first = convert<double>(b[0]);
  index_t i = 1;
  while (i < n && convert<double>(b[i * stride]) == first) ++i;
  if (i == n) return 1;
  double next = convert<double>(b[i * stride]);
  const bool increasing = first < next;
  for (++i; i < n; ++i) {
    const double last = next;
    next = convert<double>(b[i * stride]);
    if (increasing ? last > next : last < next) return 0;
  }
  return increasing ? 1 : -1;
}

// bincount: element i of x goes to bin x[i] (x holds no negative values:
// checked before counting).
template <class X, class Weight>
struct value_binner {
  const X* x;
  Weight w;
  CUPP_HD index_t bin(index_t i) const { return static_cast<index_t>(x[i]); }
  template <class Acc>
  CUPP_HD Acc weight(index_t i) const {
    return w.template at<Acc>(i);
  }
  std::size_t table_bytes() const { return 0; }
  CUPP_HD void stage(unsigned char*, unsigned, unsigned) {}
};

#if defined(__CUDACC__)
template <bool Right, class K, class View, class V>
__global__ void search_kernel(View a, const V* v, std::int64_t* out, index_t m, bool from_end) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < m) out[i] = query<Right, K>(a, v, i, from_end);
}

template <bool Right, class K, class View, class V>
void device_search(const View& a, const V* v, std::int64_t* out, index_t m, bool from_end,
                   int device) {
  if (m == 0) return;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  if constexpr (!is_complex_type_v<K>) {
    if (indexed_search_pays(a.n, m)) {
      indexed_search<Right>(a, v, out, m, from_end, device, stream);
      return;
    }
  }
  constexpr int threads = 256;
  const unsigned blocks = static_cast<unsigned>((m + threads - 1) / threads);
  search_kernel<Right, K><<<blocks, threads, 0, stream>>>(a, v, out, m, from_end);
  cuda::check(cudaGetLastError(), "searchsorted kernel");
}

// What the monotonicity check needs from every adjacent pair: the first
// position differing from b[0], and whether any pair falls or rises.
struct monotonic_flags {
  unsigned long long first_change;
  int falls;
  int rises;
  int result;
};

template <class T>
__global__ void monotonic_pairs_kernel(const T* b, index_t n, index_t stride, monotonic_flags* f) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x + 1;
  if (i >= n) return;
  const double prev = convert<double>(b[(i - 1) * stride]), cur = convert<double>(b[i * stride]);
  if (cur != convert<double>(b[0])) atomicMin(&f->first_change, static_cast<unsigned long long>(i));
  if (prev > cur) f->falls = 1;
  if (prev < cur) f->rises = 1;
}

// Direction from b[0] and the first value differing from it (NumPy's
// rule, NaN included); a later pair against that direction breaks it.
template <class T>
__global__ void monotonic_result_kernel(const T* b, index_t n, index_t stride, monotonic_flags* f) {
  if (f->first_change >= static_cast<unsigned long long>(n)) {
    f->result = 1;
    return;
  }
  const bool increasing =
      convert<double>(b[0]) < convert<double>(b[static_cast<index_t>(f->first_change) * stride]);
  f->result = increasing ? (f->falls ? 0 : 1) : (f->rises ? 0 : -1);
}

template <class T>
int device_monotonicity(const T* b, index_t n, index_t stride, int device) {
  if (n <= 1) return 1;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  cuda::memory_ptr mem = cuda::alloc(sizeof(monotonic_flags));
  auto* f = static_cast<monotonic_flags*>(mem.get());
  const monotonic_flags init{~0ull, 0, 0, 0};
  cuda::check(cudaMemcpyAsync(f, &init, sizeof init, cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync");
  constexpr int threads = 256;
  const unsigned blocks = static_cast<unsigned>((n - 1 + threads - 1) / threads);
  monotonic_pairs_kernel<<<blocks, threads, 0, stream>>>(b, n, stride, f);
  cuda::check(cudaGetLastError(), "monotonic_pairs_kernel");
  monotonic_result_kernel<<<1, 1, 0, stream>>>(b, n, stride, f);
  cuda::check(cudaGetLastError(), "monotonic_result_kernel");
  int result = 0;
  cuda::check(cudaMemcpyAsync(&result, &f->result, sizeof result, cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return result;
}
#endif

}  // namespace cupp::detail::search
