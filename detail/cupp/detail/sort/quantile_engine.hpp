// The engines of the quantile family over a contiguous (rows, n) buffer:
// rows sorted then one pass computing every (q, row) output; one long row
// through detail::select_positions (only the needed order statistics);
// weighted inverted_cdf through a stable argsort and cumulative weights.
// Outputs are laid out q-major: out[qi * rows + r].
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/sort/quantile_math.hpp>
#include <cupp/detail/sort/select_positions.hpp>
#include <cupp/detail/sort/sort_rows.hpp>

#if defined(__CUDACC__)
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif

namespace cupp::detail::quantiles {

// A row this long or longer, alone, is selected rather than sorted.
inline constexpr index_t select_threshold = index_t(1) << 15;

// What the weighted search of one row found: the element index, or -1
// for a NaN result; `bad` marks a row whose weights sum to 0, inf or NaN.
struct weighted_pick {
  index_t index;
  bool bad;
};

// NumPy's weighted inverted_cdf on one row: values sorted, cdf their
// cumulative weights (float64), q's first cdf[i] / total >= q.
template <class T>
CUPP_HD weighted_pick pick_weighted(const T* sorted, const double* cdf, index_t n, double q,
                                    bool skip_nan) {
  const index_t valid = valid_count(sorted, n);
  const index_t used = skip_nan ? valid : n;
  if (used == 0) return {-1, false};
  const double total = cdf[used - 1];
  const bool bad = std::isnan(total / total);
  if (!skip_nan && valid < n) return {-1, bad};
  index_t lo = 0, hi = used;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    double c = cdf[mid] / total;
    if (c == 0) c = -1;  // leading zero weights never hold q = 0
    if (c < q)
      lo = mid + 1;
    else
      hi = mid;
  }
  return {lo < used - 1 ? lo : used - 1, bad};
}

// ---- host -----------------------------------------------------------------

template <class R, class T>
void host_rows(const T* sorted, index_t rows, index_t n, const double* q, index_t nq, query qy,
               R* out) {
  for (index_t qi = 0; qi < nq; ++qi)
    for (index_t r = 0; r < rows; ++r)
      out[qi * rows + r] = of_sorted_row<R>(qy, q ? q[qi] : 0.0, sorted + r * n, n);
}

template <class R, class T>
void host_select(const T* in, index_t n, const double* q, index_t nq, query qy, R* out) {
  index_t valid = n;
  if constexpr (sorting::is_floating_v<T> || sorting::is_complex_v<T>) {
    valid = 0;
    for (index_t i = 0; i < n; ++i) valid += is_nan_value(in[i]) ? 0 : 1;
  }
  std::vector<point> pts(nq);
  std::vector<std::int64_t> pos(2 * nq);
  for (index_t j = 0; j < nq; ++j) {
    pts[j] = positions(qy, q ? q[j] : 0.0, n, valid);
    pos[2 * j] = pts[j].lo;
    pos[2 * j + 1] = pts[j].hi;
  }
  const std::unique_ptr<T[]> vals(new T[2 * nq]);  // T may be bool
  select_positions<T, host_space>(in, n, pos.data(), 2 * nq, vals.get());
  for (index_t j = 0; j < nq; ++j)
    out[j] = finish<R>(qy, pts[j], vals[2 * j], vals[2 * j + 1], n, valid);
}

// Weighted rows on the host: a stable argsort per row, then a sequential
// cumulative sum (NumPy's order of additions). Returns whether some row's
// weights were all zero, infinite or NaN.
template <class T, class W>
bool host_weighted(const T* in, const W* weights, index_t rows, index_t n, const double* q,
                   index_t nq, bool skip_nan, T* out) {
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows * n));
  argsort_rows<T, host_space>(in, idx.data(), rows, n);
  const std::unique_ptr<T[]> sorted(new T[n]);
  std::vector<double> cdf(n);
  bool bad = false;
  for (index_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (index_t i = 0; i < n; ++i) {
      const index_t k = r * n + idx[r * n + i];
      sorted[i] = in[k];
      sum += convert<double>(weights[k]);
      cdf[i] = sum;
    }
    for (index_t qi = 0; qi < nq; ++qi) {
      const weighted_pick p = pick_weighted(sorted.get(), cdf.data(), n, q[qi], skip_nan);
      bad = bad || p.bad;
      out[qi * rows + r] = p.index < 0 ? nan_of<T>() : sorted[p.index];
    }
  }
  return bad;
}

// ---- device ---------------------------------------------------------------

#if defined(__CUDACC__)
inline unsigned quantile_blocks(index_t items) {
  return static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>((items + 255) / 256, 8192)));
}

template <class R, class T>
__global__ void rows_kernel(const T* sorted, index_t rows, index_t n, const double* q, index_t nq,
                            query qy, R* out) {
  const index_t total = rows * nq;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x) {
    const index_t qi = i / rows, r = i - qi * rows;
    out[i] = of_sorted_row<R>(qy, q ? q[qi] : 0.0, sorted + r * n, n);
  }
}

template <class R, class T>
void device_rows(const T* sorted, index_t rows, index_t n, const double* q, index_t nq, query qy,
                 R* out, int device) {
  cudaStream_t s = cuda::detail::current_stream_impl(device)->handle;
  rows_kernel<<<quantile_blocks(rows * nq), 256, 0, s>>>(sorted, rows, n, q, nq, qy, out);
  cuda::check(cudaGetLastError(), "quantile rows kernel");
}

template <class T>
struct nan_flag {
  __host__ __device__ index_t operator()(const T& v) const { return is_nan_value(v) ? 1 : 0; }
};

template <class T>
__global__ void select_plan_kernel(const index_t* nan_count, index_t n, const double* q, index_t nq,
                                   query qy, point* pts, std::int64_t* pos) {
  for (index_t j = threadIdx.x; j < nq; j += blockDim.x) {
    pts[j] = positions(qy, q ? q[j] : 0.0, n, n - *nan_count);
    pos[2 * j] = pts[j].lo;
    pos[2 * j + 1] = pts[j].hi;
  }
}

template <class R, class T>
__global__ void select_finish_kernel(const index_t* nan_count, index_t n, index_t nq, query qy,
                                     const point* pts, const T* vals, R* out) {
  for (index_t j = threadIdx.x; j < nq; j += blockDim.x)
    out[j] = finish<R>(qy, pts[j], vals[2 * j], vals[2 * j + 1], n, n - *nan_count);
}

// One long row: the NaN count (a CUB reduction into device memory), the
// needed positions, their selection and the interpolation, all queued on
// the stream without a synchronisation.
template <class R, class T>
void device_select(const T* in, index_t n, const double* q, index_t nq, query qy, R* out,
                   int device) {
  cudaStream_t s = cuda::detail::current_stream_impl(device)->handle;
  const std::size_t head = 256;
  const std::size_t pts_bytes = sizeof(point) * nq, pos_bytes = sizeof(std::int64_t) * 2 * nq;
  auto scratch = cuda::alloc(head + pts_bytes + pos_bytes + sizeof(T) * 2 * nq + 64);
  auto* base = static_cast<unsigned char*>(scratch.get());
  auto* nan_count = reinterpret_cast<index_t*>(base);
  auto* pts = reinterpret_cast<point*>(base + head);
  auto* pos = reinterpret_cast<std::int64_t*>(base + head + pts_bytes);
  auto* vals = reinterpret_cast<T*>(base + head + pts_bytes + pos_bytes);
  if constexpr (sorting::is_floating_v<T> || sorting::is_complex_v<T>) {
    const auto flags = thrust::make_transform_iterator(in, nan_flag<T>{});
    std::size_t bytes = 0;
    cuda::check(cub::DeviceReduce::Sum(nullptr, bytes, flags, nan_count, n, s),
                "cub::DeviceReduce::Sum");
    auto temp = cuda::alloc(std::max<std::size_t>(bytes, 1));
    cuda::check(cub::DeviceReduce::Sum(temp.get(), bytes, flags, nan_count, n, s),
                "cub::DeviceReduce::Sum");
  } else {
    cuda::check(cudaMemsetAsync(nan_count, 0, sizeof(index_t), s), "cudaMemsetAsync");
  }
  select_plan_kernel<T><<<1, 128, 0, s>>>(nan_count, n, q, nq, qy, pts, pos);
  cuda::check(cudaGetLastError(), "quantile select plan");
  select_positions<T, device_space>(in, n, pos, 2 * nq, vals, device);
  select_finish_kernel<<<1, 128, 0, s>>>(nan_count, n, nq, qy, pts, vals, out);
  cuda::check(cudaGetLastError(), "quantile select finish");
}

template <class T, class W>
__global__ void weighted_gather_kernel(const T* in, const W* weights, const std::int64_t* idx,
                                       index_t rows, index_t n, T* sorted, double* w) {
  const index_t total = rows * n;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x) {
    const index_t k = (i / n) * n + idx[i];
    sorted[i] = in[k];
    w[i] = convert<double>(weights[k]);
  }
}

template <class T>
__global__ void weighted_pick_kernel(const T* sorted, const double* cdf, index_t rows, index_t n,
                                     const double* q, index_t nq, bool skip_nan, T* out, int* bad) {
  const index_t total = rows * nq;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < total;
       i += index_t(gridDim.x) * blockDim.x) {
    const index_t qi = i / rows, r = i - qi * rows;
    const weighted_pick p = pick_weighted(sorted + r * n, cdf + r * n, n, q[qi], skip_nan);
    if (p.bad) *bad = 1;
    out[i] = p.index < 0 ? nan_of<T>() : sorted[r * n + p.index];
  }
}

struct row_of_item {
  index_t n;
  __host__ __device__ index_t operator()(index_t i) const { return i / n; }
};

// Weighted rows on the device: a stable argsort of the rows, a gather of
// values and weights, cumulative weights per row (CUB's scan by row key),
// one thread per output searching its row. Reads back one flag (NumPy's
// error for weights summing to 0, inf or NaN).
template <class T, class W>
bool device_weighted(const T* in, const W* weights, index_t rows, index_t n, const double* q,
                     index_t nq, bool skip_nan, T* out, int device) {
  cudaStream_t s = cuda::detail::current_stream_impl(device)->handle;
  const index_t total = rows * n;
  auto idx = cuda::alloc(sizeof(std::int64_t) * total);
  auto sorted = cuda::alloc(sizeof(T) * total);
  auto w = cuda::alloc(sizeof(double) * total);
  auto cdf = cuda::alloc(sizeof(double) * total);
  auto flag = cuda::alloc(sizeof(int));
  auto* idx_p = static_cast<std::int64_t*>(idx.get());
  auto* sorted_p = static_cast<T*>(sorted.get());
  auto* w_p = static_cast<double*>(w.get());
  auto* cdf_p = static_cast<double*>(cdf.get());
  auto* bad = static_cast<int*>(flag.get());
  argsort_rows<T, device_space>(in, idx_p, rows, n, device);
  weighted_gather_kernel<<<quantile_blocks(total), 256, 0, s>>>(in, weights, idx_p, rows, n,
                                                                sorted_p, w_p);
  cuda::check(cudaGetLastError(), "quantile weighted gather");
  const auto keys =
      thrust::make_transform_iterator(thrust::make_counting_iterator<index_t>(0), row_of_item{n});
  std::size_t bytes = 0;
  cuda::check(cub::DeviceScan::InclusiveSumByKey(nullptr, bytes, keys, w_p, cdf_p, total,
                                                 ::cuda::std::equal_to<>{}, s),
              "cub::DeviceScan::InclusiveSumByKey");
  auto temp = cuda::alloc(std::max<std::size_t>(bytes, 1));
  cuda::check(cub::DeviceScan::InclusiveSumByKey(temp.get(), bytes, keys, w_p, cdf_p, total,
                                                 ::cuda::std::equal_to<>{}, s),
              "cub::DeviceScan::InclusiveSumByKey");
  cuda::check(cudaMemsetAsync(bad, 0, sizeof(int), s), "cudaMemsetAsync");
  weighted_pick_kernel<<<quantile_blocks(rows * nq), 256, 0, s>>>(sorted_p, cdf_p, rows, n, q, nq,
                                                                  skip_nan, out, bad);
  cuda::check(cudaGetLastError(), "quantile weighted pick");
  int host_bad = 0;
  cuda::check(cudaMemcpyAsync(&host_bad, bad, sizeof(int), cudaMemcpyDeviceToHost, s),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  return host_bad != 0;
}
#endif

}  // namespace cupp::detail::quantiles
