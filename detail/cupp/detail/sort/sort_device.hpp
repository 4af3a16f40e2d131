// The device side of the row sorts (nvcc only): rows of up to
// block_sort_max elements in one block each (sort_block.hpp); longer ones
// with CUB's DeviceRadixSort for one row (64-bit item counts),
// DeviceSegmentedRadixSort for many (segment offsets computed from the row
// index, so no offset array; in batches of whole rows past 2^31 elements),
// and the few element-wise kernels around them.
//
// NaN: the value sort hands the input to CUB as it is (no pass before the
// sort). CUB's radix sorts order floats by their bits (with -0.0 equal to
// 0.0), which puts NaNs with the sign bit set first; a kernel of one thread
// per row finds such a prefix, and only when one exists (a flag on the
// device, no host synchronisation) two further kernels move it to the end
// of its row as the canonical quiet NaN. Otherwise they return at once.
// Index sorts read keys made by sorting::full_key (every NaN the same
// largest key), so NaNs keep their input order, as in NumPy's stable
// argsort; their positions ride through CUB as 32-bit integers where rows
// are shorter than 2^31, widened to int64 at the end.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/sort/sort_block.hpp>
#include <cupp/detail/sort/sort_keys.hpp>

namespace cupp::detail::sorting {

inline constexpr int sort_threads = 256;

inline unsigned sort_blocks(index_t items) {
  const index_t b = (items + sort_threads - 1) / sort_threads;
  return static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>(b, 8192)));
}

// CUB sorts bool as its byte.
template <class T>
using cub_key = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

struct row_start {
  index_t n;
  __host__ __device__ index_t operator()(index_t r) const { return r * n; }
};
inline auto row_offsets(index_t n) {
  return thrust::make_transform_iterator(thrust::make_counting_iterator<index_t>(0), row_start{n});
}

// CUB's segmented sorts count items in int: more rows than that go in
// batches of whole rows (each batch one call over many rows), and a row
// longer than that on its own through DeviceRadixSort (64-bit counts).
// `sort(temp, bytes, first_row, rows)` makes one CUB call (a size query
// when temp is null); the temporary storage fits every batch.
template <class Call>
cuda::memory_ptr in_row_batches(index_t rows, index_t n, std::size_t min_bytes, const Call& sort) {
  const index_t batch =
      std::max<index_t>(1, std::min<index_t>(rows, INT_MAX / std::max<index_t>(n, 1)));
  std::size_t need = 0;
  for (const index_t r : {batch, rows % batch}) {
    if (r == 0) continue;
    std::size_t bytes = 0;
    cuda::check(sort(nullptr, bytes, index_t(0), r), "cub sort (temporary storage)");
    need = std::max(need, bytes);
  }
  auto temp = cuda::alloc(std::max<std::size_t>(std::max(need, min_bytes), 1));
  for (index_t first = 0; first < rows; first += batch) {
    std::size_t bytes = need;
    cuda::check(sort(temp.get(), bytes, first, std::min(batch, rows - first)), "cub sort");
  }
  return temp;
}

// Sorts rows of keys (with values when V is not void) and returns the
// temporary storage, at least `min_bytes` long, for the caller to reuse once
// the sort is done (stream order).
template <class K, class V>
cuda::memory_ptr cub_sort(const K* kin, K* kout, const V* vin, V* vout, index_t rows, index_t n,
                          cudaStream_t s, std::size_t min_bytes = 0) {
  const auto off = row_offsets(n);
  constexpr int bits = int(sizeof(K) * 8);
  return in_row_batches(
      rows, n, min_bytes, [&](void* temp, std::size_t& bytes, index_t first, index_t r) {
        const index_t at = first * n, items = r * n;
        if constexpr (std::is_void_v<V>) {
          if (r == 1)
            return cub::DeviceRadixSort::SortKeys(temp, bytes, kin + at, kout + at, items, 0, bits,
                                                  s);
          return cub::DeviceSegmentedRadixSort::SortKeys(
              temp, bytes, kin + at, kout + at, int(items), int(r), off, off + 1, 0, bits, s);
        } else {
          if (r == 1)
            return cub::DeviceRadixSort::SortPairs(temp, bytes, kin + at, kout + at, vin + at,
                                                   vout + at, items, 0, bits, s);
          return cub::DeviceSegmentedRadixSort::SortPairs(temp, bytes, kin + at, kout + at,
                                                          vin + at, vout + at, int(items), int(r),
                                                          off, off + 1, 0, bits, s);
        }
      });
}

// Sorts rows of keys in place: CUB's double-buffer sorts, with the
// alternate buffer from the pool (copied back when the result ends there:
// an odd number of passes). Returns that buffer, free once the sort has
// run, for the caller's scratch.
template <class K>
cuda::memory_ptr cub_sort_keys_inplace(K* keys, index_t rows, index_t n, cudaStream_t s) {
  const index_t total = rows * n;
  auto alt = cuda::alloc(static_cast<std::size_t>(total) * sizeof(K));
  K* other = static_cast<K*>(alt.get());
  const auto off = row_offsets(n);
  constexpr int bits = int(sizeof(K) * 8);
  in_row_batches(rows, n, 0, [&](void* temp, std::size_t& bytes, index_t first, index_t r) {
    const index_t at = first * n, items = r * n;
    cub::DoubleBuffer<K> db(keys + at, other + at);
    const cudaError_t e = r == 1
                              ? cub::DeviceRadixSort::SortKeys(temp, bytes, db, items, 0, bits, s)
                              : cub::DeviceSegmentedRadixSort::SortKeys(
                                    temp, bytes, db, int(items), int(r), off, off + 1, 0, bits, s);
    if (e == cudaSuccess && temp && db.Current() != keys + at)
      return cudaMemcpyAsync(keys + at, db.Current(), static_cast<std::size_t>(items) * sizeof(K),
                             cudaMemcpyDeviceToDevice, s);
    return e;
  });
  return alt;
}

template <class T>
__global__ void find_negative_nans(const T* out, index_t rows, index_t n, index_t* count,
                                   int* any) {
  for (index_t r = blockIdx.x * index_t(blockDim.x) + threadIdx.x; r < rows;
       r += index_t(gridDim.x) * blockDim.x) {
    const T* row = out + r * n;
    index_t k = 0;
    if (is_negative_nan(row[0])) {
      // The negative NaNs form a prefix: find its end.
      index_t lo = 1, hi = n;
      while (lo < hi) {
        const index_t mid = lo + (hi - lo) / 2;
        if (is_negative_nan(row[mid]))
          lo = mid + 1;
        else
          hi = mid;
      }
      k = lo;
      *any = 1;
    }
    count[r] = k;
  }
}

template <class T>
__global__ void rotate_negative_nans(const T* out, T* scratch, index_t rows, index_t n,
                                     const index_t* count, const int* any) {
  if (*any == 0) return;
  const index_t total = rows * n;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x) {
    const index_t r = i / n, j = i - r * n, k = count[r];
    scratch[i] = j + k < n ? out[i + k] : canonical_nan<T>();
  }
}

template <class T>
__global__ void copy_if_any(const T* scratch, T* out, index_t total, const int* any) {
  if (*any == 0) return;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x)
    out[i] = scratch[i];
}

// The key of pass `Part` of a dtype: complex128 sorts in two passes (its
// imaginary-or-class key first, then the most significant one).
template <class T, int Part>
__host__ __device__ auto pass_key(const T& v) {
  if constexpr (std::is_same_v<T, complex128>) {
    const auto k = complex_keys(v);
    return Part == 0 ? k.lo : k.hi;
  } else {
    return full_key(v);
  }
}
template <class T>
inline constexpr int passes_of = std::is_same_v<T, complex128> ? 2 : 1;

// keys[i] = the key of src at the position `order` puts at i of its row;
// with no order (the first pass), the identity, and order_out gets it.
template <class T, int Part, class I, class U>
__global__ void make_keys(const T* src, const I* order, U* keys, I* order_out, index_t rows,
                          index_t n) {
  const index_t total = rows * n;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x) {
    const index_t r = rows == 1 ? 0 : i / n, j = i - r * n;
    if (order) {
      keys[i] = pass_key<T, Part>(src[r * n + order[i]]);
    } else {
      if (keys) keys[i] = pass_key<T, Part>(src[i]);
      order_out[i] = static_cast<I>(j);
    }
  }
}

template <class T, class I>
__global__ void gather_rows(const T* src, const I* order, T* out, index_t rows, index_t n) {
  const index_t total = rows * n;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x) {
    const index_t r = rows == 1 ? 0 : i / n;
    out[i] = src[r * n + order[i]];
  }
}

template <class I>
__global__ void widen_positions(const I* in, std::int64_t* out, index_t total) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// The stable order of each row by the keys, the last one primary: one
// stable pairs sort per key (two for complex128), least significant first,
// with positions of type I.
template <class I, class... K>
void lexsort_rows_as(std::int64_t* idx, index_t rows, index_t n, cudaStream_t s, const K*... keys) {
  const index_t total = rows * n;
  constexpr bool wide = std::is_same_v<I, std::int64_t>;
  constexpr int passes = (passes_of<K> + ...);
  auto spare = cuda::alloc(static_cast<std::size_t>(total) * sizeof(I) * (wide ? 1 : 2));
  I* const spare_i = static_cast<I*>(spare.get());
  I* const last = wide ? reinterpret_cast<I*>(idx) : spare_i + total;
  I* const buffers[2] = {last, spare_i};
  int pass = 0;
  const I* order = nullptr;
  auto run_pass = [&]<class T, int Part>(const T* src) {
    // Pass p writes buffers[(passes - 1 - p) % 2], so the last writes `last`.
    I* out = buffers[(passes - 1 - pass) % 2];
    I* in = buffers[(passes - pass) % 2];
    using U = decltype(pass_key<T, Part>(src[0]));
    // Unsigned integers (and bool) are their own keys: the first pass
    // hands them to CUB as they are. Signed ones are mapped, so that every
    // dtype shares the four unsigned instantiations of the pairs sorts.
    constexpr bool own_keys = std::is_unsigned_v<T> || std::is_same_v<T, bool>;
    const bool raw = own_keys && order == nullptr;
    auto key_mem = cuda::alloc(static_cast<std::size_t>(total) * sizeof(U) * (raw ? 1 : 2));
    U* kout = static_cast<U*>(key_mem.get());
    U* kin = raw ? nullptr : kout + total;
    make_keys<T, Part><<<sort_blocks(total), sort_threads, 0, s>>>(src, order, kin, in, rows, n);
    cuda::check(cudaGetLastError(), "make_keys");
    const U* keys_in = kin;
    if constexpr (own_keys) {
      static_assert(sizeof(U) == sizeof(T));
      if (raw) keys_in = reinterpret_cast<const U*>(src);
    }
    cub_sort(keys_in, kout, static_cast<const I*>(in), out, rows, n, s);
    order = out;
    ++pass;
  };
  auto one_key = [&]<class T>(const T* src) {
    run_pass.template operator()<T, 0>(src);
    if constexpr (passes_of<T> == 2) run_pass.template operator()<T, 1>(src);
  };
  (one_key(keys), ...);
  if constexpr (!wide) {
    widen_positions<<<sort_blocks(total), sort_threads, 0, s>>>(last, idx, total);
    cuda::check(cudaGetLastError(), "widen_positions");
  }
}

// Rows of one short key sort in blocks; otherwise the passes above, with
// 32-bit positions (half the bytes CUB moves) where rows allow.
template <class... K>
void device_lexsort_rows(std::int64_t* idx, index_t rows, index_t n, cudaStream_t s,
                         const K*... keys) {
  if constexpr (sizeof...(K) == 1 && (block_sortable_v<K> && ...)) {
    if (n <= block_sort_max) {
      (block_sort_rows<true>(keys, idx, rows, n, s), ...);
      return;
    }
  }
  if (n <= INT32_MAX)
    lexsort_rows_as<std::int32_t>(idx, rows, n, s, keys...);
  else
    lexsort_rows_as<std::int64_t>(idx, rows, n, s, keys...);
}

// Rows of floats after CUB's radix sorts (which order NaNs by their bits,
// so NaNs with the sign bit set come first): those moved to the end of
// their rows with no host synchronisation (a device flag says whether
// there were any). `scratch` holds rows * n elements.
template <class T>
void move_negative_nans(T* out, T* scratch, index_t rows, index_t n, cudaStream_t s) {
  const index_t total = rows * n;
  auto flags = cuda::alloc(static_cast<std::size_t>(rows) * sizeof(index_t) + sizeof(int));
  auto* count = static_cast<index_t*>(flags.get());
  auto* any = reinterpret_cast<int*>(count + rows);
  cuda::check(cudaMemsetAsync(any, 0, sizeof(int), s), "cudaMemsetAsync");
  find_negative_nans<<<sort_blocks(rows), sort_threads, 0, s>>>(out, rows, n, count, any);
  rotate_negative_nans<<<sort_blocks(total), sort_threads, 0, s>>>(out, scratch, rows, n, count,
                                                                   any);
  copy_if_any<<<sort_blocks(total), sort_threads, 0, s>>>(scratch, out, total, any);
  cuda::check(cudaGetLastError(), "NaN fix-up");
}

template <class T>
void device_sort_float_rows(const T* in, T* out, index_t rows, index_t n, cudaStream_t s) {
  using C = cub_key<T>;
  // CUB's temporary storage is free once the sort has run: the scratch.
  auto temp =
      cub_sort<C, void>(reinterpret_cast<const C*>(in), reinterpret_cast<C*>(out), nullptr, nullptr,
                        rows, n, s, static_cast<std::size_t>(rows * n) * sizeof(T));
  move_negative_nans(out, static_cast<T*>(temp.get()), rows, n, s);
}

template <class T>
void device_sort_rows(const T* in, T* out, index_t rows, index_t n, cudaStream_t s) {
  const index_t total = rows * n;
  if constexpr (block_sortable_v<T>) {
    if (n <= block_sort_max) {
      block_sort_rows<false>(in, out, rows, n, s);
      return;
    }
  }
  if constexpr (is_complex_v<T>) {
    // Complex values: their stable order, then a gather.
    auto order = cuda::alloc(static_cast<std::size_t>(total) * sizeof(std::int64_t));
    auto* o = static_cast<std::int64_t*>(order.get());
    device_lexsort_rows(o, rows, n, s, in);
    gather_rows<<<sort_blocks(total), sort_threads, 0, s>>>(in, o, out, rows, n);
    cuda::check(cudaGetLastError(), "gather_rows");
  } else if constexpr (is_floating_v<T>) {
    device_sort_float_rows(in, out, rows, n, s);
  } else {
    using C = cub_key<T>;
    auto temp = cub_sort<C, void>(reinterpret_cast<const C*>(in), reinterpret_cast<C*>(out),
                                  nullptr, nullptr, rows, n, s, 0);
    (void)temp;
  }
}

// Sorts rows in place (the buffer is the caller's own, e.g. an evaluated
// expression): no second buffer of the result's size beyond CUB's
// alternate one.
template <class T>
void device_sort_rows_inplace(T* data, index_t rows, index_t n, cudaStream_t s) {
  if constexpr (block_sortable_v<T>) {
    if (n <= block_sort_max) {
      // Each block reads its whole row before it writes any of it.
      block_sort_rows<false>(data, data, rows, n, s);
      return;
    }
  }
  if constexpr (is_complex_v<T>) {
    auto copy = cuda::alloc(static_cast<std::size_t>(rows * n) * sizeof(T));
    T* c = static_cast<T*>(copy.get());
    cuda::check(cudaMemcpyAsync(c, data, static_cast<std::size_t>(rows * n) * sizeof(T),
                                cudaMemcpyDeviceToDevice, s),
                "cudaMemcpyAsync");
    device_sort_rows(c, data, rows, n, s);
  } else {
    using C = cub_key<T>;
    auto alt = cub_sort_keys_inplace(reinterpret_cast<C*>(data), rows, n, s);
    if constexpr (is_floating_v<T>)
      move_negative_nans(data, static_cast<T*>(alt.get()), rows, n, s);
  }
}

}  // namespace cupp::detail::sorting
