// The sorting engine over a contiguous (rows, n) buffer, every row sorted
// on its own: detail::sort_rows (values) and detail::lexsort_rows /
// detail::argsort_rows (stable indices within each row), for device buffers
// (CUB) and host buffers (std::stable_sort). partition, percentile and
// unique build on these.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/sort/sort_keys.hpp>

#if defined(__CUDACC__)
#include <cupp/detail/sort/sort_device.hpp>
#endif

namespace cupp::detail {

namespace sorting {

// Runs f(first_row, last_row) over row ranges on a few threads when there
// is enough work to pay for them.
template <class F>
void for_row_ranges(index_t rows, index_t n, F&& f) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const index_t want = std::min<index_t>(
      {static_cast<index_t>(hw), rows, std::max<index_t>(1, rows * n / (index_t(1) << 16))});
  if (want <= 1) {
    f(index_t(0), rows);
    return;
  }
  std::vector<std::thread> team;
  const index_t step = (rows + want - 1) / want;
  for (index_t r = step; r < rows; r += step)
    team.emplace_back([&f, r, step, rows] { f(r, std::min(rows, r + step)); });
  f(index_t(0), std::min(rows, step));
  for (auto& t : team) t.join();
}

}  // namespace sorting

// Sorts each of `rows` contiguous rows of `n` elements of `in` into `out`
// (the same layout; in == out allowed on the host, not on the device) in
// NumPy's order. Device buffers: CUB on the current stream of `device`,
// asynchronous; NaNs in the result may have different bits from the input's
// (see sort_device.hpp).
template <class T, class S>
void sort_rows(const T* in, T* out, index_t rows, index_t n, int device = 0) {
  if (rows == 0 || n == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    sorting::device_sort_rows(in, out, rows, n, cuda::detail::current_stream_impl(device)->handle);
#else
    (void)device;
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    (void)device;
    sorting::for_row_ranges(rows, n, [&](index_t r0, index_t r1) {
      for (index_t r = r0; r < r1; ++r) {
        if (in != out) std::copy(in + r * n, in + (r + 1) * n, out + r * n);
        std::stable_sort(out + r * n, out + (r + 1) * n, sorting::np_less{});
      }
    });
  }
}

// sort_rows with the result written over the input (a buffer the caller
// owns): on the device, the sort runs in that buffer.
template <class T, class S>
void sort_rows_inplace(T* data, index_t rows, index_t n, int device = 0) {
  if (rows == 0 || n == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    sorting::device_sort_rows_inplace(data, rows, n,
                                      cuda::detail::current_stream_impl(device)->handle);
#else
    (void)device;
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    sort_rows<T, S>(data, data, rows, n, device);
  }
}

// lexsort along rows: keys[0..count) are contiguous (rows, n) buffers, the
// LAST one primary (NumPy's lexsort); `idx` receives, per row, the stable
// order (0..n-1) of its elements. Each key is one pointer of type K.
template <class S, class... K>
void lexsort_rows(std::int64_t* idx, index_t rows, index_t n, int device, const K*... keys) {
  if (rows == 0 || n == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    sorting::device_lexsort_rows(idx, rows, n, cuda::detail::current_stream_impl(device)->handle,
                                 keys...);
#else
    (void)device;
    CUPP_NEEDS_NVCC(S);
#endif
  } else {
    (void)device;
    sorting::for_row_ranges(rows, n, [&](index_t r0, index_t r1) {
      for (index_t r = r0; r < r1; ++r) {
        std::int64_t* o = idx + r * n;
        std::iota(o, o + n, std::int64_t(0));
        const index_t base = r * n;
        std::stable_sort(o, o + n, [&](std::int64_t a, std::int64_t b) {
          // The last key decides first; earlier keys break its ties.
          bool decided = false, less = false;
          auto step = [&](const auto* k) {
            if (decided) return;
            const sorting::np_less lt;
            if (lt(k[base + a], k[base + b])) {
              decided = less = true;
            } else if (lt(k[base + b], k[base + a])) {
              decided = true;
            }
          };
          // Fold from the last key to the first.
          [&]<std::size_t... I>(std::index_sequence<I...>) {
            const auto tuple = std::make_tuple(keys...);
            (step(std::get<sizeof...(K) - 1 - I>(tuple)), ...);
          }
          (std::index_sequence_for<K...>{});
          return less;
        });
      }
    });
  }
}

// argsort along rows: the stable order of each row's elements.
template <class T, class S>
void argsort_rows(const T* keys, std::int64_t* idx, index_t rows, index_t n, int device = 0) {
  lexsort_rows<S>(idx, rows, n, device, keys);
}

}  // namespace cupp::detail
