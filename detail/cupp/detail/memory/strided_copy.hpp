// Copies between arrays of the same shape and any strides, on the host and
// on the device. Used by copy(), by transfers of non-contiguous arrays and
// by set() into views.
#pragma once

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// A copy with axes of extent 1 dropped, axes ordered so that the
// destination is walked in memory order (last axis fastest), and adjacent
// axes merged where both sides are contiguous across them.
struct copy_plan {
  int ndim = 0;
  index_t size = 0;
  index_t shape[max_ndim] = {};
  index_t dst[max_ndim] = {};
  index_t src[max_ndim] = {};
};

inline copy_plan plan_copy(const shape_t& shape, const strides_t& dst, const strides_t& src) {
  copy_plan p;
  p.size = size_of(shape);
  if (p.size == 0) return p;
  int axes[max_ndim];
  int n = 0;
  for (int i = 0; i < shape.size(); ++i)
    if (shape[i] != 1) axes[n++] = i;
  auto mag = [](index_t s) { return s < 0 ? -s : s; };
  std::stable_sort(axes, axes + n, [&](int a, int b) { return mag(dst[a]) > mag(dst[b]); });
  for (int k = 0; k < n; ++k) {
    const int a = axes[k];
    if (p.ndim > 0) {
      const int last = p.ndim - 1;
      if (p.dst[last] == shape[a] * dst[a] && p.src[last] == shape[a] * src[a]) {
        p.shape[last] *= shape[a];
        p.dst[last] = dst[a];
        p.src[last] = src[a];
        continue;
      }
    }
    p.shape[p.ndim] = shape[a];
    p.dst[p.ndim] = dst[a];
    p.src[p.ndim] = src[a];
    ++p.ndim;
  }
  return p;
}

// Host copy of `p.size` elements of `itemsize` bytes.
inline void host_strided_copy(char* dst, const char* src, const copy_plan& p, index_t itemsize) {
  if (p.size == 0) return;
  if (p.ndim == 0) {
    std::memcpy(dst, src, static_cast<std::size_t>(itemsize));
    return;
  }
  const int inner = p.ndim - 1;
  const index_t n_inner = p.shape[inner];
  const bool inner_dense = p.dst[inner] == itemsize && p.src[inner] == itemsize;
  index_t idx[max_ndim] = {};
  const index_t outer = p.size / n_inner;
  for (index_t o = 0; o < outer; ++o) {
    index_t doff = 0, soff = 0;
    for (int a = 0; a < inner; ++a) {
      doff += idx[a] * p.dst[a];
      soff += idx[a] * p.src[a];
    }
    if (inner_dense) {
      std::memcpy(dst + doff, src + soff, static_cast<std::size_t>(n_inner * itemsize));
    } else {
      for (index_t i = 0; i < n_inner; ++i)
        std::memcpy(dst + doff + i * p.dst[inner], src + soff + i * p.src[inner],
                    static_cast<std::size_t>(itemsize));
    }
    for (int a = inner - 1; a >= 0; --a) {
      if (++idx[a] < p.shape[a]) break;
      idx[a] = 0;
    }
  }
}

// An unsigned integer (or a 16-byte vector pair) of `Size` bytes: moves of
// elements stand in it for every dtype of that size, so that copy, gather
// and compaction kernels are instantiated per element size, not per dtype.
template <int Size>
struct word_of;
template <>
struct word_of<1> {
  using type = unsigned char;
};
template <>
struct word_of<2> {
  using type = unsigned short;
};
template <>
struct word_of<4> {
  using type = unsigned int;
};
template <>
struct word_of<8> {
  using type = unsigned long long;
};
template <>
struct word_of<16> {
  using type = ulonglong2;
};
template <class T>
using word_t = typename word_of<static_cast<int>(sizeof(T))>::type;

#if defined(__CUDACC__)

// Any layout: each element finds its offsets from its linear position.
template <int Size>
__global__ void strided_copy_kernel(char* __restrict__ dst, const char* __restrict__ src,
                                    copy_plan p) {
  using word = typename word_of<Size>::type;
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.size;
       i += stride) {
    index_t rest = i, doff = 0, soff = 0;
    for (int a = p.ndim - 1; a >= 0; --a) {
      const index_t e = p.shape[a];
      const index_t k = rest % e;
      rest /= e;
      doff += k * p.dst[a];
      soff += k * p.src[a];
    }
    *reinterpret_cast<word*>(dst + doff) = *reinterpret_cast<const word*>(src + soff);
  }
}

// Offsets of row `row` of a plan whose last axis is the row: the division
// by the outer extents happens once per row, not once per element.
CUPP_HD inline void row_offsets(const copy_plan& p, int outer_axes, index_t row, index_t& doff,
                                index_t& soff) {
  doff = soff = 0;
  for (int a = outer_axes - 1; a >= 0; --a) {
    const index_t e = p.shape[a];
    const index_t k = row % e;
    row /= e;
    doff += k * p.dst[a];
    soff += k * p.src[a];
  }
}

// Rows dense on both sides (a slice of rows, a sub-block of a matrix):
// blocks walk rows, threads walk a row with several loads in flight.
inline constexpr int row_copy_threads = 256;
inline constexpr int row_copy_unroll = 4;

template <int Size>
__global__ void __launch_bounds__(row_copy_threads)
    row_copy_kernel(char* __restrict__ dst, const char* __restrict__ src, copy_plan p) {
  using word = typename word_of<Size>::type;
  constexpr index_t span = index_t{row_copy_threads} * row_copy_unroll;
  const int inner = p.ndim - 1;
  const index_t n = p.shape[inner];
  const index_t rows = p.size / n;
  for (index_t row = blockIdx.y; row < rows; row += gridDim.y) {
    index_t doff, soff;
    row_offsets(p, inner, row, doff, soff);
    word* d = reinterpret_cast<word*>(dst + doff);
    const word* s = reinterpret_cast<const word*>(src + soff);
    for (index_t j0 = blockIdx.x * span + threadIdx.x; j0 < n; j0 += gridDim.x * span) {
      word v[row_copy_unroll];
#pragma unroll
      for (int k = 0; k < row_copy_unroll; ++k)
        if (j0 + k * row_copy_threads < n) v[k] = s[j0 + k * row_copy_threads];
#pragma unroll
      for (int k = 0; k < row_copy_unroll; ++k)
        if (j0 + k * row_copy_threads < n) d[j0 + k * row_copy_threads] = v[k];
    }
  }
}

// A copy that transposes: the destination is dense along axis `a` (the
// plan's last) and the source along another axis `b`. Reading rows of the
// source and writing rows of the destination both coalesce when a tile
// passes through shared memory; the other axes are batches of tiles.
struct transpose_plan {
  copy_plan p;  // the batch axes: the plan without a and b
  index_t na, nb;
  index_t src_a, dst_b;  // the strides that are not the item size
  index_t tiles_a, tiles_b;
};

inline constexpr int transpose_rows = 8;  // threads: 32 x transpose_rows

template <int Size>
inline constexpr int transpose_tile = Size <= 4 ? 64 : 32;

template <int Size>
__global__ void __launch_bounds__(32 * transpose_rows)
    transpose_copy_kernel(char* __restrict__ dst, const char* __restrict__ src, transpose_plan t) {
  using word = typename word_of<Size>::type;
  constexpr int tile = transpose_tile<Size>;
  constexpr int R = tile / transpose_rows;  // rows per thread
  constexpr int C = tile / 32;              // columns per thread
  // One padding element: a column of the tile spreads over every bank.
  __shared__ word buf[tile][tile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const index_t per_batch = t.tiles_a * t.tiles_b;
  const index_t jobs = per_batch * t.p.size;
  for (index_t job = blockIdx.x; job < jobs; job += gridDim.x) {
    const index_t batch = job / per_batch, in_batch = job - batch * per_batch;
    const index_t a0 = (in_batch / t.tiles_b) * tile, b0 = (in_batch % t.tiles_b) * tile;
    index_t doff = 0, soff = 0;
    if (t.p.ndim > 0) row_offsets(t.p, t.p.ndim, batch, doff, soff);
    const char* s = src + soff;
    char* d = dst + doff;
    // Rows of the tile are positions along a; the source is dense along b.
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const index_t a = a0 + ty + r * transpose_rows;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const index_t b = b0 + tx + c * 32;
        if (a < t.na && b < t.nb)
          buf[ty + r * transpose_rows][tx + c * 32] =
              *reinterpret_cast<const word*>(s + a * t.src_a + b * Size);
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const index_t b = b0 + ty + r * transpose_rows;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const index_t a = a0 + tx + c * 32;
        if (a < t.na && b < t.nb)
          *reinterpret_cast<word*>(d + b * t.dst_b + a * Size) =
              buf[tx + c * 32][ty + r * transpose_rows];
      }
    }
    __syncthreads();
  }
}

// The transposing form of plan `p` when it has one worth tiling: the
// destination dense along its last axis, the source dense along another,
// both long enough to fill a tile's rows.
inline bool plan_transpose(const copy_plan& p, index_t itemsize, transpose_plan& t) CUPP_HOST_BODY({
  if (p.ndim < 2) return false;
  const int a = p.ndim - 1;
  if (p.dst[a] != itemsize || p.src[a] == itemsize) return false;
  int b = -1;
  for (int k = 0; k < a; ++k)
    if (p.src[k] == itemsize) b = k;
  if (b < 0 || p.shape[a] < 16 || p.shape[b] < 16) return false;
  t.na = p.shape[a];
  t.nb = p.shape[b];
  t.src_a = p.src[a];
  t.dst_b = p.dst[b];
  t.p = copy_plan{};
  t.p.size = 1;
  for (int k = 0; k < a; ++k) {
    if (k == b) continue;
    t.p.shape[t.p.ndim] = p.shape[k];
    t.p.dst[t.p.ndim] = p.dst[k];
    t.p.src[t.p.ndim] = p.src[k];
    t.p.size *= p.shape[k];
    ++t.p.ndim;
  }
  return true;
});

// The general kernel's grid (strided_copy_kernel, 256 threads): a block per
// 256 elements, at most 16 resident per SM, a grid-stride loop beyond.
inline unsigned strided_copy_blocks(index_t size, int sms) {
  const index_t wanted = (size + 255) / 256;
  return static_cast<unsigned>(
      std::max<index_t>(1, std::min(wanted, static_cast<index_t>(sms) * 16)));
}

template <int Size>
void launch_strided_copy(char* dst, const char* src, const copy_plan& p, int sms,
                         cudaStream_t stream) {
  // Enough resident blocks to keep every SM's memory pipes busy, with a
  // grid-stride loop beyond that.
  const index_t cap = static_cast<index_t>(sms) * 32;
  transpose_plan t;
  if (plan_transpose(p, Size, t)) {
    constexpr int tile = transpose_tile<Size>;
    t.tiles_a = (t.na + tile - 1) / tile;
    t.tiles_b = (t.nb + tile - 1) / tile;
    const index_t jobs = t.tiles_a * t.tiles_b * t.p.size;
    const unsigned blocks = static_cast<unsigned>(std::min(jobs, cap));
    transpose_copy_kernel<Size><<<blocks, dim3(32, transpose_rows), 0, stream>>>(dst, src, t);
    return;
  }
  const int inner = p.ndim - 1;
  if (p.ndim >= 1 && p.dst[inner] == Size && p.src[inner] == Size) {
    constexpr index_t span = index_t{row_copy_threads} * row_copy_unroll;
    const index_t n = p.shape[inner], rows = p.size / n;
    const index_t gx = std::min((n + span - 1) / span, cap);
    const index_t gy = std::min({rows, std::max<index_t>(1, cap / gx), index_t{65535}});
    row_copy_kernel<Size><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)),
                            row_copy_threads, 0, stream>>>(dst, src, p);
    return;
  }
  strided_copy_kernel<Size><<<strided_copy_blocks(p.size, sms), 256, 0, stream>>>(dst, src, p);
}

// Device copy on `stream` of the current device. A template, so that only
// a translation unit that copies compiles the fifteen kernels.
template <int = 0>
void device_strided_copy(char* dst, const char* src, const copy_plan& p, index_t itemsize,
                         cudaStream_t stream) {
  if (p.size == 0) return;
  const int dev = cuda::runtime::getDevice();
  const int sms = cuda::runtime::getDeviceProperties(dev).multiProcessorCount;
  switch (itemsize) {
    case 1:
      launch_strided_copy<1>(dst, src, p, sms, stream);
      break;
    case 2:
      launch_strided_copy<2>(dst, src, p, sms, stream);
      break;
    case 4:
      launch_strided_copy<4>(dst, src, p, sms, stream);
      break;
    case 8:
      launch_strided_copy<8>(dst, src, p, sms, stream);
      break;
    case 16:
      launch_strided_copy<16>(dst, src, p, sms, stream);
      break;
    default:
      throw value_error("unsupported item size " + std::to_string(itemsize));
  }
  cuda::check_last_launch("strided copy");
}

#endif  // __CUDACC__

// ndarray's copies, which a .cpp file may use, reach device_strided_copy
// through this pointer. It is set before main by every translation unit
// that nvcc compiles and that copies a device array into another layout
// (ndarray::copy_into names strided_copy_registration there): the kernels
// compile only in units that copy, and come from the program's .cu files.
using strided_copy_fn = void (*)(char*, const char*, const copy_plan&, index_t, cudaStream_t);
inline strided_copy_fn device_strided_copy_ptr = nullptr;
#if defined(__CUDACC__)
template <int = 0>
struct strided_copy_registration {
  static inline const bool done = (device_strided_copy_ptr = &device_strided_copy<>, true);
};
#endif

// The byte range [lo, hi) that a side of the copy touches.
inline void copy_extent(const copy_plan& p, const index_t* st, index_t itemsize, index_t& lo,
                        index_t& hi) CUPP_HOST_BODY({
  lo = 0;
  hi = itemsize;
  for (int a = 0; a < p.ndim; ++a) (st[a] < 0 ? lo : hi) += st[a] * (p.shape[a] - 1);
});

// Without the kernels (no unit of the program compiled by nvcc copies into
// another layout): both sides' byte ranges through host memory, arranged
// there, and the destination's range written back. Correct, and as slow as
// two round trips; the destination's gaps are written back unchanged.
inline void host_staged_device_copy(char* dst, const char* src, const copy_plan& p,
                                    index_t itemsize, cudaStream_t stream) CUPP_HOST_BODY({
  if (p.size == 0) return;
  index_t slo, shi, dlo, dhi;
  copy_extent(p, p.src, itemsize, slo, shi);
  copy_extent(p, p.dst, itemsize, dlo, dhi);
  std::vector<char> s(static_cast<std::size_t>(shi - slo)), d(static_cast<std::size_t>(dhi - dlo));
  cuda::check(cudaMemcpyAsync(s.data(), src + slo, s.size(), cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaMemcpyAsync(d.data(), dst + dlo, d.size(), cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  host_strided_copy(d.data() - dlo, s.data() - slo, p, itemsize);
  cuda::check(cudaMemcpyAsync(dst + dlo, d.data(), d.size(), cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
});

inline void device_strided_copy_indirect(char* dst, const char* src, const copy_plan& p,
                                         index_t itemsize, cudaStream_t stream) CUPP_HOST_BODY({
  if (device_strided_copy_ptr == nullptr)
    host_staged_device_copy(dst, src, p, itemsize, stream);
  else
    device_strided_copy_ptr(dst, src, p, itemsize, stream);
});

}  // namespace cupp::detail
