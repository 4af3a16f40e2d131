// Scans (cumsum, cumprod and their NaN-ignoring forms) through
// cub::DeviceScan: the operand is read through a random-access iterator that
// evaluates the lazy expression at each position of the scan order (the
// scanned axis fastest), and the segments of an axis scan are told apart by
// a key iterator (position / axis length), so that one InclusiveScanByKey
// scans every segment at once.
#pragma once

#include <cstdint>
#include <iterator>
#include <type_traits>

#include <cupp/cuda/memory.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/float_support.hpp>

#if defined(__CUDACC__)
#include <cub/device/device_scan.cuh>
#endif

namespace cupp::detail {

// The dimensions of the scan order after merging, fastest first.
struct scan_dims {
  int nd = 1;
  index_t ext[kernel_dims] = {};
  fast_divmod div[kernel_dims];

  CUPP_HD void coords(index_t i, index_t* c) const {
    CUPP_UNROLL
    for (int k = 0; k < kernel_dims; ++k) {
      if (k < nd - 1) {
        const index_t q = static_cast<index_t>(div[k].div64(static_cast<std::uint64_t>(i)));
        c[k] = i - q * ext[k];
        i = q;
      } else if (k == nd - 1) {
        c[k] = i;
      } else {
        c[k] = 0;
      }
    }
  }
};

// The operand's value at position i of the scan order, as the accumulator;
// with SkipNan, NaN reads as Skip (0 for sums, 1 for products).
template <class Ev, class Acc, bool SkipNan>
struct scan_input {
  using value_type = Acc;
  using difference_type = std::ptrdiff_t;
  using pointer = const Acc*;
  using reference = Acc;
  using iterator_category = std::random_access_iterator_tag;

  Ev e;
  scan_dims d;
  Acc skip;
  index_t i = 0;

  CUPP_HD Acc at(index_t k) const {
    index_t c[kernel_dims];
    d.coords(k, c);
    typename Ev::regs r{};  // one lane loaded (-Wmaybe-uninitialized)
    e.load(r, c, d.nd, 1);
    const auto v = e.value(r, 0);
    if constexpr (SkipNan)
      if (ops::misc_detail::value_isnan(v)) return skip;
    return convert<Acc>(v);
  }
  CUPP_HD Acc operator*() const { return at(i); }
  CUPP_HD Acc operator[](difference_type k) const { return at(i + k); }
  CUPP_HD scan_input operator+(difference_type k) const {
    scan_input r = *this;
    r.i += k;
    return r;
  }
  CUPP_HD scan_input operator-(difference_type k) const { return *this + (-k); }
  CUPP_HD difference_type operator-(const scan_input& o) const { return i - o.i; }
  CUPP_HD scan_input& operator+=(difference_type k) {
    i += k;
    return *this;
  }
  CUPP_HD scan_input& operator-=(difference_type k) {
    i -= k;
    return *this;
  }
  CUPP_HD scan_input& operator++() {
    ++i;
    return *this;
  }
  CUPP_HD scan_input operator++(int) {
    scan_input r = *this;
    ++i;
    return r;
  }
  CUPP_HD bool operator==(const scan_input& o) const { return i == o.i; }
  CUPP_HD bool operator!=(const scan_input& o) const { return i != o.i; }
};

// The segment of position i: i / length.
struct segment_keys {
  using value_type = std::int64_t;
  using difference_type = std::ptrdiff_t;
  using pointer = const std::int64_t*;
  using reference = std::int64_t;
  using iterator_category = std::random_access_iterator_tag;

  fast_divmod length;
  index_t i = 0;

  CUPP_HD std::int64_t at(index_t k) const {
    return static_cast<std::int64_t>(length.div64(static_cast<std::uint64_t>(k)));
  }
  CUPP_HD std::int64_t operator*() const { return at(i); }
  CUPP_HD std::int64_t operator[](difference_type k) const { return at(i + k); }
  CUPP_HD segment_keys operator+(difference_type k) const {
    segment_keys r = *this;
    r.i += k;
    return r;
  }
  CUPP_HD segment_keys operator-(difference_type k) const { return *this + (-k); }
  CUPP_HD difference_type operator-(const segment_keys& o) const { return i - o.i; }
  CUPP_HD segment_keys& operator+=(difference_type k) {
    i += k;
    return *this;
  }
  CUPP_HD segment_keys& operator++() {
    ++i;
    return *this;
  }
  CUPP_HD bool operator==(const segment_keys& o) const { return i == o.i; }
  CUPP_HD bool operator!=(const segment_keys& o) const { return i != o.i; }
};

template <class Acc, bool Product>
struct scan_op {
  CUPP_HD Acc operator()(const Acc& a, const Acc& b) const {
    if constexpr (Product)
      return ops::multiply{}(a, b);
    else
      return ops::add{}(a, b);
  }
};

#if defined(__CUDACC__)
// The operator handed to CUB: its tuned policies for sm90 (24 items per
// thread and a look-back delay measured for the type) apply only to the
// operators it recognises, ::cuda::std::plus among them; a functor of our
// own gets the generic policy, which ran cumsum of 2^28 float32 at 70% of
// the copy bandwidth against 81% with plus. Sums of the built-in
// arithmetic types are the same operation either way.
template <class Op>
struct cub_scan_op {
  using type = Op;
};
template <class Acc>
requires(std::is_arithmetic_v<Acc> &&
         !std::is_same_v<Acc, bool>) struct cub_scan_op<scan_op<Acc, false>> {
  using type = ::cuda::std::plus<Acc>;
};

template <class In, class Out, class Op0>
void device_scan(const In& in, Out* out, Op0, index_t n, index_t length, cudaStream_t stream) {
  const typename cub_scan_op<Op0>::type op{};
  std::size_t bytes = 0;
  if (length == n) {
    cuda::check(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op, n, stream),
                "cub::DeviceScan::InclusiveScan");
    auto temp = cuda::alloc(bytes);
    cuda::check(cub::DeviceScan::InclusiveScan(temp.get(), bytes, in, out, op, n, stream),
                "cub::DeviceScan::InclusiveScan");
  } else {
    const segment_keys keys{fast_divmod(static_cast<std::uint64_t>(length))};
    cuda::check(cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, keys, in, out, op, n,
                                                    ::cuda::std::equal_to<>{}, stream),
                "cub::DeviceScan::InclusiveScanByKey");
    auto temp = cuda::alloc(bytes);
    cuda::check(cub::DeviceScan::InclusiveScanByKey(temp.get(), bytes, keys, in, out, op, n,
                                                    ::cuda::std::equal_to<>{}, stream),
                "cub::DeviceScan::InclusiveScanByKey");
  }
}
#endif

template <class In, class Out, class Op>
void host_scan(const In& in, Out* out, Op op, index_t n, index_t length) {
  for (index_t s = 0; s < n; s += length) {
    auto acc = in[s];
    out[s] = convert<Out>(acc);
    for (index_t k = 1; k < length; ++k) {
      acc = op(acc, in[s + k]);
      out[s + k] = convert<Out>(acc);
    }
  }
}

}  // namespace cupp::detail
