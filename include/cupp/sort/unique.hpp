// numpy.unique (return_index, return_inverse, return_counts, axis,
// equal_nan) and NumPy 2's unique_values, unique_counts, unique_inverse and
// unique_all, over arrays and lazy expressions of every dtype. Results are
// sorted in NumPy's order (NaNs last); a run of equal values is
// represented by its first occurrence in the input (-0.0 or 0.0, whichever
// comes first). The number of unique values sizes the results, so device
// arrays read it back: one synchronisation of the current stream per call.
// Device arrays sort with CUB (DeviceRadixSort, DeviceMergeSort for slices)
// and select the runs with DeviceSelect; host arrays use the CPU. See
// docs/sorting.md.
//
//   auto v = cupp::unique(x);                               // the values
//   auto r = cupp::unique(x * 2, {.return_counts = true});  // r.values, r.counts
//   auto rows = cupp::unique(m, {.axis = 0}).values;        // unique rows
//   auto [values, counts] = cupp::unique_counts(x);
#pragma once

#include <cstdint>
#include <string>

#include <cupp/axis.hpp>
#include <cupp/detail/sort/sort_args.hpp>
#include <cupp/detail/sort/unique_engine.hpp>
#include <cupp/expression.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/sort_types.hpp>

namespace cupp {

// NumPy 2's UniqueAllResult, UniqueCountsResult, UniqueInverseResult.
template <class T, class S>
struct unique_all_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> indices, inverse_indices, counts;
};
template <class T, class S>
struct unique_counts_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> counts;
};
template <class T, class S>
struct unique_inverse_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> inverse_indices;
};

namespace detail::sorting {

template <class S>
int unique_device_id() {
  if constexpr (std::is_same_v<S, device_space>)
    return cuda::runtime::getDevice();
  else
    return -1;
}

template <class E>
auto unique_of(const E& e, const unique_options& o) {
  using T = typename E::value_type;
  static_assert(is_dtype_v<T>, "cupp: unique takes an array or an expression, not a scalar");
  using S = eval_space_t<typename E::space>;
  using I = std::int64_t;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  int ax = -1;
  if (!o.axis.all()) {
    // NumPy moves the axes to the front, which wants as many as one.
    if (o.axis.size() != 1)
      throw value_error(
          "`source` and `destination` arguments must have the same number of elements");
    ax = sort_axis(o.axis[0], nd);
  }
  const unique_request req{o.return_index, o.return_inverse, o.return_counts, o.equal_nan};
  const int device = unique_device_id<S>();
  const index_t size = size_of(shape);
  unique_result<T, S> r;
  auto sized = [&](index_t u) {
    if (req.index) r.indices = ndarray<I, S>(shape_t{u});
    if (req.counts) r.counts = ndarray<I, S>(shape_t{u});
  };
  if (ax < 0 || nd == 1) {
    // Flattened: NumPy's _unique1d, where equal_nan applies.
    if (req.inverse) r.inverse = ndarray<I, S>(ax < 0 ? shape : shape_t{size});
    auto alloc = [&](index_t u) {
      r.values = ndarray<T, S>(shape_t{u});
      sized(u);
      return unique_outputs<T>{r.values.data(), req.index ? r.indices.data() : nullptr,
                               req.counts ? r.counts.data() : nullptr};
    };
    I* inverse = req.inverse ? r.inverse.data() : nullptr;
    if (size == 0) {
      unique_flat<T, S>(static_cast<const T*>(nullptr), nullptr, 0, req, inverse, device, alloc);
    } else {
      // An operand written out for the call is the sort's own buffer.
      auto src = rows_of(e, -1);
      T* own = src.buffer.size() == size ? src.buffer.data() : nullptr;
      unique_flat<T, S>(src.data, own, size, req, inverse, device, alloc);
    }
    return r;
  }
  // Slices along the axis: the operand's lines along it, one per element
  // of a slice, as the (m, n) buffer unique_slices_of reads.
  const index_t n = shape[ax];
  index_t m = 1;
  for (int d = 0; d < nd; ++d)
    if (d != ax) m *= shape[d];
  if (req.inverse) r.inverse = ndarray<I, S>(shape_t{n});
  shape_t slab_shape = shape;  // the buffer's shape: the axis last
  int j = 0;
  for (int d = 0; d < nd; ++d)
    if (d != ax) slab_shape[j++] = shape[d];
  ndarray<T, S> slab;
  index_t unique_count = 0;
  auto alloc = [&](index_t u) {
    unique_count = u;
    slab_shape[nd - 1] = u;
    slab = ndarray<T, S>(slab_shape);
    sized(u);
    return unique_outputs<T>{slab.data(), req.index ? r.indices.data() : nullptr,
                             req.counts ? r.counts.data() : nullptr};
  };
  I* inverse = req.inverse ? r.inverse.data() : nullptr;
  if (size == 0) {
    unique_slices_of<T, S>(static_cast<const T*>(nullptr), n, m, req, inverse, device, alloc);
  } else {
    const auto src = rows_of(e, ax);
    unique_slices_of<T, S>(src.data, n, m, req, inverse, device, alloc);
  }
  shape_t values_shape = shape;
  values_shape[ax] = unique_count;
  if (ax == nd - 1) {
    r.values = slab;  // the buffer's layout is already the result's
    return r;
  }
  r.values = ndarray<T, S>(values_shape);
  if (size_of(values_shape) > 0)
    assign(r.values, array_leaf<T, S>{permuted_view(slab, values_shape, ax)});
  return r;
}

}  // namespace detail::sorting

// numpy.unique(x): the sorted unique values of the flattened x (NaNs one
// value, as NumPy's default equal_nan=True).
template <Expression E>
auto unique(const E& x) {
  return detail::sorting::unique_of(as_operand(x), unique_options{}).values;
}

// numpy.unique(x, return_index, return_inverse, return_counts, axis,
// equal_nan, sorted): every result in one struct.
template <Expression E>
auto unique(const E& x, const unique_options& options) {
  return detail::sorting::unique_of(as_operand(x), options);
}

// NumPy 2's unique_all(x): np.unique(x, True, True, True, equal_nan=False).
template <Expression E>
auto unique_all(const E& x) {
  auto r = detail::sorting::unique_of(
      as_operand(x),
      {.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false});
  using T = typename decltype(r.values)::value_type;
  using S = typename decltype(r.values)::space_type;
  return unique_all_result<T, S>{std::move(r.values), std::move(r.indices), std::move(r.inverse),
                                 std::move(r.counts)};
}

// NumPy 2's unique_counts(x): values and counts, equal_nan=False.
template <Expression E>
auto unique_counts(const E& x) {
  auto r = detail::sorting::unique_of(as_operand(x), {.return_counts = true, .equal_nan = false});
  using T = typename decltype(r.values)::value_type;
  using S = typename decltype(r.values)::space_type;
  return unique_counts_result<T, S>{std::move(r.values), std::move(r.counts)};
}

// NumPy 2's unique_inverse(x): values and the inverse (x's shape),
// equal_nan=False.
template <Expression E>
auto unique_inverse(const E& x) {
  auto r = detail::sorting::unique_of(as_operand(x), {.return_inverse = true, .equal_nan = false});
  using T = typename decltype(r.values)::value_type;
  using S = typename decltype(r.values)::space_type;
  return unique_inverse_result<T, S>{std::move(r.values), std::move(r.inverse)};
}

// NumPy 2's unique_values(x): the values, equal_nan=False. NumPy leaves
// their order unspecified (and returns them unsorted); cupp's are sorted.
template <Expression E>
auto unique_values(const E& x) {
  return detail::sorting::unique_of(as_operand(x), {.equal_nan = false}).values;
}

}  // namespace cupp
