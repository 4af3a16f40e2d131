// The partition engine over a contiguous (rows, n) buffer: every row
// partitioned around the same sorted, distinct kth positions, as values or
// as int64 positions within the row. Host rows: std::nth_element over
// successive ranges. Device rows: one long row with one kth of a real
// dtype takes the radix selection and one three-way pass
// (partition_device.hpp); anything else (several kth, many rows, complex
// numbers, short rows) is sorted, which is a valid partition for every kth.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/sort/select_positions.hpp>
#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/detail/sort/sort_rows.hpp>

#if defined(__CUDACC__)
#include <cupp/detail/sort/partition_device.hpp>
#endif

namespace cupp::detail {

namespace partitioning {

// Below this row length a sort costs about what the selection's fixed
// number of launches does.
inline constexpr index_t radix_min_length = index_t(1) << 15;

template <class T>
bool takes_radix_path(index_t rows, index_t n, std::size_t kth_count) {
#if defined(__CUDACC__)
  return selecting::radix_selectable_v<T> && rows == 1 && kth_count == 1 && n >= radix_min_length;
#else
  (void)rows, (void)n, (void)kth_count;
  return false;
#endif
}

}  // namespace partitioning

// Partitions each of `rows` rows of `n` elements of `src` into `dst` (the
// same layout; src != dst): values with Indices false, int64 positions
// within the row with Indices true. `kth` holds positions in [0, n).
template <bool Indices, class T, class S>
void partition_rows(const T* src, std::conditional_t<Indices, std::int64_t, T>* dst, index_t rows,
                    index_t n, const std::vector<std::int64_t>& kth, int device = 0) {
  if (rows == 0 || n == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    if constexpr (selecting::radix_selectable_v<T>) {
      if (partitioning::takes_radix_path<T>(rows, n, kth.size())) {
        partitioning::device_partition_one_row<Indices>(
            src, n, kth[0], dst, cuda::detail::current_stream_impl(device)->handle, device);
        return;
      }
    }
    if constexpr (Indices)
      argsort_rows<T, S>(src, dst, rows, n, device);
    else
      sort_rows<T, S>(src, dst, rows, n, device);
#else
    (void)src, (void)dst, (void)kth, (void)device;
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    (void)device;
    sorting::for_row_ranges(rows, n, [&](index_t r0, index_t r1) {
      for (index_t r = r0; r < r1; ++r) {
        const T* in = src + r * n;
        auto* out = dst + r * n;
        if constexpr (Indices) {
          std::iota(out, out + n, std::int64_t(0));
          selecting::nth_elements(out, n, kth, [in](std::int64_t a, std::int64_t b) {
            return sorting::np_less{}(in[a], in[b]);
          });
        } else {
          std::copy(in, in + n, out);
          selecting::nth_elements(out, n, kth, sorting::np_less{});
        }
      }
    });
  }
}

}  // namespace cupp::detail
