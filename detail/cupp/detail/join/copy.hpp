// The data movement behind concatenate, stack, insert and delete: many
// copies of one source each into a region of one destination, issued
// together. On the device, every copy whose rows are dense on both sides
// (after merging axes as detail::plan_copy does: the usual case, as when
// C-ordered inputs are joined along any axis) becomes a "piece" of rows,
// and one kernel launch copies up to a batch of pieces with 16-byte
// accesses where the addresses allow: a join of eight arrays is one launch,
// with no gaps between per-piece copies. Other copies go through the
// strided copy kernel. On the host the same plans drive memcpy loops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/memory/strided_copy.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// One copy: `shape` elements from `src` (byte strides src_st) to `dst`
// (byte strides dst_st).
struct copy_job {
  char* dst = nullptr;
  const char* src = nullptr;
  shape_t shape;
  strides_t dst_st, src_st;
};

inline void host_copy_jobs(std::span<const copy_job> jobs, index_t itemsize) CUPP_HOST_BODY({
  for (const copy_job& j : jobs)
    host_strided_copy(j.dst, j.src, plan_copy(j.shape, j.dst_st, j.src_st), itemsize);
});

#if defined(__CUDACC__)

// `rows` rows of `row_bytes` bytes each, `src_pitch` / `dst_pitch` bytes
// apart (either may be negative for the source); copied in words of
// 1 << width_log2 bytes, which divide both addresses, both pitches and the
// row length.
struct copy_piece {
  const char* src;
  char* dst;
  index_t rows, row_bytes, src_pitch, dst_pitch, tiles_per_row;
  int width_log2;
};

// 256 threads, four 16-byte words each: a tile of a row per block.
inline constexpr int join_threads = 256;
inline constexpr index_t join_tile_bytes = index_t{16} * join_threads * 4;
// Pieces per launch: the kernel parameter stays well under 4 KiB.
inline constexpr int join_batch = 32;

struct piece_batch {
  int n = 0;
  index_t first_tile[join_batch + 1] = {};
  copy_piece p[join_batch];
};

// A tile is at most join_tile_bytes long: 32-bit offsets within it.
template <class W>
__device__ __forceinline__ void copy_words(char* __restrict__ d, const char* __restrict__ s,
                                           int bytes) {
  W* dw = reinterpret_cast<W*>(d);
  const W* sw = reinterpret_cast<const W*>(s);
  const int n = bytes / static_cast<int>(sizeof(W));
  // Four loads in flight per thread before the stores.
  for (int base = threadIdx.x; base < n; base += 4 * join_threads) {
    W v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int i = base + k * join_threads;
      if (i < n) v[k] = sw[i];
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int i = base + k * join_threads;
      if (i < n) dw[i] = v[k];
    }
  }
}

// A template (launched as join_copy_kernel<>) so that every translation
// unit may define it: a program of several .cu files links, with
// whole-program and separate (-rdc) compilation alike.
template <int = 0>
__global__ void __launch_bounds__(join_threads, 4) join_copy_kernel(const piece_batch b) {
  const index_t total = b.first_tile[b.n];
  for (index_t t = blockIdx.x; t < total; t += gridDim.x) {
    int lo = 0, hi = b.n - 1;  // the piece holding tile t
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (b.first_tile[mid] <= t)
        lo = mid;
      else
        hi = mid - 1;
    }
    const copy_piece& pc = b.p[lo];
    const index_t local = t - b.first_tile[lo];
    const index_t row = local / pc.tiles_per_row;
    const index_t begin = (local - row * pc.tiles_per_row) * join_tile_bytes;
    const index_t left = pc.row_bytes - begin;
    const int bytes = static_cast<int>(left < join_tile_bytes ? left : join_tile_bytes);
    const char* s = pc.src + row * pc.src_pitch + begin;
    char* d = pc.dst + row * pc.dst_pitch + begin;
    switch (pc.width_log2) {
      case 4:
        copy_words<uint4>(d, s, bytes);
        break;
      case 3:
        copy_words<unsigned long long>(d, s, bytes);
        break;
      case 2:
        copy_words<unsigned int>(d, s, bytes);
        break;
      case 1:
        copy_words<unsigned short>(d, s, bytes);
        break;
      default:
        copy_words<unsigned char>(d, s, bytes);
        break;
    }
  }
}

// The widest word (log2 of 16, 8, 4, 2, 1 bytes) that divides every value.
inline int common_width_log2(std::uintptr_t bits) CUPP_HOST_BODY({
  int w = 4;
  while (w > 0 && (bits & ((std::uintptr_t{1} << w) - 1)) != 0) --w;
  return w;
});

// Runs every job on `stream` of the current device (where all the memory
// is): dense-row jobs in batched launches of the piece kernel, the others
// through the strided copy. A template, so that a translation unit that
// joins nothing compiles no join kernel.
template <int = 0>
void device_copy_jobs(std::span<const copy_job> jobs, index_t itemsize, cudaStream_t stream) {
  std::vector<copy_piece> pieces;
  for (const copy_job& j : jobs) {
    const copy_plan p = plan_copy(j.shape, j.dst_st, j.src_st);
    if (p.size == 0) continue;
    const int in = p.ndim - 1;
    const bool dense_rows =
        p.ndim == 0 || (p.ndim <= 2 && p.dst[in] == itemsize && p.src[in] == itemsize);
    if (!dense_rows) {
      device_strided_copy<>(j.dst, j.src, p, itemsize, stream);
      continue;
    }
    copy_piece pc{};
    pc.src = j.src;
    pc.dst = j.dst;
    pc.rows = p.ndim == 2 ? p.shape[0] : 1;
    pc.row_bytes = (p.ndim == 0 ? 1 : p.shape[in]) * itemsize;
    pc.src_pitch = p.ndim == 2 ? p.src[0] : 0;
    pc.dst_pitch = p.ndim == 2 ? p.dst[0] : 0;
    pc.tiles_per_row = (pc.row_bytes + join_tile_bytes - 1) / join_tile_bytes;
    pc.width_log2 = common_width_log2(
        reinterpret_cast<std::uintptr_t>(pc.src) | reinterpret_cast<std::uintptr_t>(pc.dst) |
        static_cast<std::uintptr_t>(pc.row_bytes) | static_cast<std::uintptr_t>(pc.src_pitch) |
        static_cast<std::uintptr_t>(pc.dst_pitch));
    pieces.push_back(pc);
  }
  if (pieces.empty()) return;
  const auto& props = cuda::runtime::getDeviceProperties(cuda::runtime::getDevice());
  // Enough blocks to fill the device many times over; beyond that blocks
  // loop over tiles.
  const index_t max_blocks = static_cast<index_t>(props.multiProcessorCount) * 256;
  for (std::size_t at = 0; at < pieces.size(); at += join_batch) {
    piece_batch b;
    b.n = static_cast<int>(std::min<std::size_t>(join_batch, pieces.size() - at));
    for (int k = 0; k < b.n; ++k) {
      b.p[k] = pieces[at + k];
      b.first_tile[k + 1] = b.first_tile[k] + b.p[k].rows * b.p[k].tiles_per_row;
    }
    const index_t tiles = b.first_tile[b.n];
    const unsigned blocks =
        static_cast<unsigned>(std::max<index_t>(1, std::min(tiles, max_blocks)));
    join_copy_kernel<><<<blocks, join_threads, 0, stream>>>(b);
    cuda::check_last_launch("join copy");
  }
}

#endif  // __CUDACC__

}  // namespace cupp::detail
