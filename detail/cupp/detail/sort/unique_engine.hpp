// The unique() engine over a contiguous buffer, for device buffers (CUB)
// and host buffers (the CPU):
//   unique_flat:   n elements (axis=None, or a 1-d operand);
//   unique_slices: n slices of m elements (axis=), slice s's element j at
//                  keys[j * n + s].
// Both sort (stably when positions are wanted, so that a run's first
// element is its first occurrence), find the starts of the runs of equal
// values (unique_runs.hpp), scan the inverse through the sort's
// permutation, and hand the number of runs u to the caller's
// alloc(u) -> unique_outputs<T>, which sizes the results. On the device
// that count is the one value read back: one synchronisation of the
// current stream, after the sort, the inverse and the selection of the
// run starts are queued, and before the kernel that writes the results.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/sort/sort_rows.hpp>
#include <cupp/detail/sort/unique_runs.hpp>

#if defined(__CUDACC__)
#include <cupp/detail/sort/unique_device.hpp>
#endif

namespace cupp::detail::sorting {

// What unique() returns besides the values.
struct unique_request {
  bool index = false, inverse = false, counts = false, equal_nan = true;
};

// Where the results go once their size is known; null where not wanted.
// values holds u elements (unique_flat) or m * u as (m, u) (unique_slices).
template <class T>
struct unique_outputs {
  T* values = nullptr;
  std::int64_t* indices = nullptr;
  std::int64_t* counts = nullptr;
};

namespace unique_host {

// The runs of sorted positions 0..n-1 given their heads: the results, the
// inverse (through `order`) and the values by `value_of(k, first)`.
template <class T, class Head, class Alloc, class Value>
void finish(const Head& head, const std::vector<std::int64_t>& order, index_t n,
            std::int64_t* inverse, Alloc& alloc, Value&& value_of) {
  std::vector<std::int64_t> starts;
  std::int64_t run = -1;
  for (index_t i = 0; i < n; ++i) {
    if (head(i)) {
      starts.push_back(i);
      ++run;
    }
    if (inverse) inverse[order[i]] = run;
  }
  const index_t u = starts.size();
  const unique_outputs<T> out = alloc(u);
  for (index_t k = 0; k < u; ++k) {
    const std::int64_t first = starts[k];
    if (out.values) value_of(out.values, k, u, order[first]);
    if (out.indices) out.indices[k] = order[first];
    if (out.counts) out.counts[k] = (k + 1 < u ? starts[k + 1] : n) - first;
  }
}

}  // namespace unique_host

// `own`, when not null, is a buffer holding the same n values that the
// call may overwrite (an operand evaluated for it): a values-only device
// sort then runs there, with no buffer of its own.
template <class T, class S, class Alloc>
void unique_flat(const T* src, T* own, index_t n, unique_request req, std::int64_t* inverse,
                 int device, Alloc&& alloc) {
  if (n == 0) {
    alloc(0);
    return;
  }
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const cudaStream_t s = cuda::detail::current_stream_impl(device)->handle;
    cuda::memory_ptr sorted_mem, order_mem, zero_mem;
    auto scratch = [&] {
      sorted_mem = cuda::alloc(static_cast<std::size_t>(n) * sizeof(T));
      return static_cast<T*>(sorted_mem.get());
    };
    const T* sorted = nullptr;
    const std::int64_t* order = nullptr;
    const T* first_zero = nullptr;
    if (req.index || req.inverse) {
      order_mem = cuda::alloc(static_cast<std::size_t>(n) * sizeof(std::int64_t));
      auto* o = static_cast<std::int64_t*>(order_mem.get());
      argsort_rows<T, S>(src, o, 1, n, device);
      T* gathered = scratch();  // not `own`: the gather reads src, which may be it
      gather_rows<<<sort_blocks(n), sort_threads, 0, s>>>(src, o, gathered, 1, n);
      cuda::check(cudaGetLastError(), "gather_rows");
      sorted = gathered;
      order = o;
    } else {
      // Values alone: a keys-only radix sort, the cheapest CUB has.
      if constexpr (is_floating_v<T>) {
        zero_mem = unique_device_first_zero(src, n, s);
        first_zero = static_cast<const T*>(zero_mem.get());
      }
      if (own) {
        sort_rows_inplace<T, S>(own, 1, n, device);
        sorted = own;
      } else {
        T* out = scratch();
        sort_rows<T, S>(src, out, 1, n, device);
        sorted = out;
      }
    }
    auto heads_mem = cuda::alloc(static_cast<std::size_t>(n));
    auto* heads = static_cast<std::uint8_t*>(heads_mem.get());
    unique_mark_heads<<<sort_blocks(n), sort_threads, 0, s>>>(
        unique_head_fn<T>{sorted, req.equal_nan}, n, heads);
    cuda::check(cudaGetLastError(), "unique_mark_heads");
    auto starts_mem = cuda::alloc(static_cast<std::size_t>(n) * sizeof(std::int64_t));
    auto* starts = static_cast<std::int64_t*>(starts_mem.get());
    const index_t u =
        unique_device_select(heads, order, req.inverse ? inverse : nullptr, starts, n, device, s);
    const unique_outputs<T> out = alloc(u);
    unique_values_kernel<<<sort_blocks(u), sort_threads, 0, s>>>(sorted, starts, u, first_zero,
                                                                 out.values);
    if (out.indices || out.counts)
      unique_runs_kernel<<<sort_blocks(u), sort_threads, 0, s>>>(starts, u, n, order, out.indices,
                                                                 out.counts);
    cuda::check(cudaGetLastError(), "unique_values_kernel");
#else
    (void)src, (void)own, (void)req, (void)inverse, (void)device, (void)alloc;
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    (void)device, (void)own;
    std::vector<std::int64_t> order(n);
    std::iota(order.begin(), order.end(), std::int64_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b) { return np_less{}(src[a], src[b]); });
    const std::unique_ptr<T[]> sorted(new T[n]);  // not std::vector: bool is a dtype
    for (index_t i = 0; i < n; ++i) sorted[i] = src[order[i]];
    const unique_head_fn<T> head{sorted.get(), req.equal_nan};
    unique_host::finish<T>(
        head, order, n, inverse, alloc,
        [&](T* values, index_t k, index_t, std::int64_t first) { values[k] = src[first]; });
  }
}

template <class T, class S, class Alloc>
void unique_slices_of(const T* keys, index_t n, index_t m, unique_request req,
                      std::int64_t* inverse, int device, Alloc&& alloc) {
  if (n == 0) {
    alloc(0);
    return;
  }
  const unique_slices<T> slices{keys, n, m};
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const cudaStream_t s = cuda::detail::current_stream_impl(device)->handle;
    // The slices' keys: one merge sort per key width, not per dtype.
    constexpr bool two_keys = std::is_same_v<T, complex128>;
    using U = std::conditional_t<two_keys, std::uint64_t, decltype(full_key(std::declval<T>()))>;
    const index_t width = two_keys ? 2 * m : m;
    auto keys_mem = cuda::alloc(std::max<std::size_t>(1, width * n * sizeof(U)));
    auto flags_mem = cuda::alloc(2 * static_cast<std::size_t>(n));
    auto* keys_of = static_cast<U*>(keys_mem.get());
    auto* has_nan = static_cast<std::uint8_t*>(flags_mem.get());
    std::uint8_t* heads = has_nan + n;
    unique_slice_keys<<<sort_blocks(n), sort_threads, 0, s>>>(slices, keys_of, has_nan);
    cuda::check(cudaGetLastError(), "unique_slice_keys");
    auto order_mem = cuda::alloc(static_cast<std::size_t>(n) * sizeof(std::int64_t));
    auto* order = static_cast<std::int64_t*>(order_mem.get());
    unique_device_sort_slices(unique_key_slices<U>{keys_of, has_nan, n, width}, order, heads, s);
    auto starts_mem = cuda::alloc(static_cast<std::size_t>(n) * sizeof(std::int64_t));
    auto* starts = static_cast<std::int64_t*>(starts_mem.get());
    const index_t u =
        unique_device_select(heads, order, req.inverse ? inverse : nullptr, starts, n, device, s);
    const unique_outputs<T> out = alloc(u);
    if (out.indices || out.counts)
      unique_runs_kernel<<<sort_blocks(u), sort_threads, 0, s>>>(
          starts, u, n, static_cast<const std::int64_t*>(order), out.indices, out.counts);
    if (m > 0)
      unique_gather_slices<<<sort_blocks(m * u), sort_threads, 0, s>>>(slices, starts, order, u,
                                                                       out.values);
    cuda::check(cudaGetLastError(), "unique_gather_slices");
#else
    (void)slices, (void)req, (void)inverse, (void)device, (void)alloc;
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    (void)device;
    std::vector<std::int64_t> order(n);
    std::iota(order.begin(), order.end(), std::int64_t(0));
    std::stable_sort(order.begin(), order.end(), slices);
    const unique_slice_head_fn<unique_slices<T>> head{slices, order.data()};
    unique_host::finish<T>(head, order, n, inverse, alloc,
                           [&](T* values, index_t k, index_t u, std::int64_t first) {
                             for (index_t j = 0; j < m; ++j)
                               values[j * u + k] = keys[j * n + first];
                           });
  }
}

}  // namespace cupp::detail::sorting
