// cupyx.distributed.array for cupp: one process, several GPUs, an array
// split into chunks that an index map places on devices (several chunks
// per device, overlaps allowed), and a mode that says how overlapping
// chunks combine: replica (they hold equal values) or a reduction (sum,
// prod, max, min: the value is the reduction over every chunk covering an
// element, the identity where none does). Element-wise expressions run one
// fused cupp kernel per chunk, on the chunk's device and its current
// stream; data moves between devices only where chunks must be realigned
// (reshard, change_mode, the combine of reductions, matmul's operands).
// See docs/distributed.md.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/creation.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression.hpp>
#include <cupp/linalg.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cupp/detail/distributed/array_expr.hpp>
#include <cupp/detail/distributed/array_ops.hpp>
#include <cupp/detail/distributed/array_regions.hpp>

namespace cupp::distributed {

// cupyx.distributed.array.make_2d_index_map: block (i, j) spans
// i_partitions[i]:i_partitions[i+1] by j_partitions[j]:j_partitions[j+1]
// and is placed on every device of devices[i][j].
inline index_map make_2d_index_map(std::span<const index_t> i_partitions,
                                   std::span<const index_t> j_partitions,
                                   const std::vector<std::vector<std::vector<int>>>& devices) {
  const auto check = [](std::span<const index_t> p, const char* name) {
    if (p.size() < 2) throw value_error(std::string(name) + " needs at least two boundaries");
    for (std::size_t k = 1; k < p.size(); ++k)
      if (p[k] < p[k - 1]) throw value_error(std::string(name) + " must be non-decreasing");
  };
  check(i_partitions, "i_partitions");
  check(j_partitions, "j_partitions");
  if (devices.size() != i_partitions.size() - 1)
    throw value_error("devices must have one row per block row (" +
                      std::to_string(i_partitions.size() - 1) + ")");
  index_map m;
  for (std::size_t i = 0; i + 1 < i_partitions.size(); ++i) {
    if (devices[i].size() != j_partitions.size() - 1)
      throw value_error("devices must have one entry per block column (" +
                        std::to_string(j_partitions.size() - 1) + ")");
    for (std::size_t j = 0; j + 1 < j_partitions.size(); ++j)
      for (int dev : devices[i][j])
        m[dev].push_back({cupp::slice(i_partitions[i], i_partitions[i + 1]),
                          cupp::slice(j_partitions[j], j_partitions[j + 1])});
  }
  return m;
}

template <class T>
class distributed_array {
  using box = ::cupp::detail::darray::box;

 public:
  using value_type = T;
  struct chunk {
    int device;
    std::vector<index_t> begin, end;
    ndarray<T> data;  // C-contiguous, on `device`
  };

  // Each chunk of the index map is copied from `a` to its device. The map
  // must cover the array (nothing of `a` would be kept otherwise). In a
  // reduction mode the first chunk covering an element holds its value and
  // the others the identity.
  distributed_array(const host::ndarray<T>& a, const ::cupp::distributed::index_map& m,
                    mode md = mode::replica)
      : distributed_array(a.shape(), m, md, true) {
    fill_from(a);
  }
  distributed_array(const ndarray<T>& a, const ::cupp::distributed::index_map& m,
                    mode md = mode::replica)
      : distributed_array(a.shape(), m, md, true) {
    fill_from(a);
  }

  // The value of a lazy distributed expression: one kernel per chunk.
  template <class F, class... A>
  distributed_array(const ::cupp::detail::darray::expr<F, A...>& e);

  const shape_t& shape() const { return shape_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  index_t size() const { return ::cupp::detail::size_of(shape_); }
  mode get_mode() const { return mode_; }
  const ::cupp::distributed::index_map& index_map() const { return map_; }
  std::vector<int> devices() const {
    std::vector<int> d;
    for (const auto& [dev, chunks] : map_)
      if (!chunks.empty()) d.push_back(dev);
    return d;
  }
  const std::vector<chunk>& chunks() const { return chunks_; }

  // The whole array on the host (replica: each element from the chunk that
  // owns it; reduction modes: combined on the first device first).
  host::ndarray<T> get() const {
    if (mode_ != mode::replica) return to_device(first_device()).get();
    host::ndarray<T> out(shape_);
    const auto owned = ::cupp::detail::darray::owned_boxes(regions());
    for (std::size_t k = 0; k < chunks_.size(); ++k)
      for (const box& b : owned[k]) {
        const auto items = ::cupp::detail::darray::view_index(b);
        ::cupp::detail::darray::view(chunks_[k].data,
                                     ::cupp::detail::darray::relative(b, region(k)))
            .get_into(out(std::span<const cupp::index_item>(items)));
      }
    return out;
  }

  // The whole array on `device`.
  ndarray<T> to_device(int device) const {
    cuda::Device check(device);
    cuda::device_scope scope(device);
    ndarray<T> out(shape_);
    if (mode_ != mode::replica)
      ::cupp::detail::darray::fill(out, ::cupp::detail::darray::identity<T>(mode_));
    const auto owned = ::cupp::detail::darray::owned_boxes(regions());
    for (std::size_t k = 0; k < chunks_.size(); ++k) {
      if (mode_ == mode::replica) {
        for (const box& b : owned[k])
          ::cupp::detail::darray::copy_between(
              ::cupp::detail::darray::view(chunks_[k].data,
                                           ::cupp::detail::darray::relative(b, region(k))),
              ::cupp::detail::darray::view(out, b));
      } else if (chunks_[k].data.size() > 0) {
        ::cupp::detail::darray::combine_into(
            mode_, ::cupp::detail::darray::view(out, region(k)),
            ::cupp::detail::darray::on_device(chunks_[k].data, device));
      }
    }
    return out;
  }

  // The same values in the chunks of another index map (copies of the
  // overlaps between old and new chunks, peer to peer across devices).
  // The new map must cover the array (replica), or every old chunk
  // (reduction modes).
  distributed_array reshard(const ::cupp::distributed::index_map& m) const;

  // The same values in another mode: replica -> reduction keeps each value
  // in the chunk that owns the element and the identity elsewhere;
  // reduction -> replica combines the overlapping chunks into every chunk
  // (the map must cover the array); reduction -> reduction goes through
  // replica.
  distributed_array change_mode(mode md) const;

  // --- internals the free functions build on --------------------------------
  struct unchecked_t {};
  distributed_array(shape_t shape, ::cupp::distributed::index_map m, mode md,
                    std::vector<chunk> chunks, unchecked_t)
      : shape_(std::move(shape)), mode_(md), map_(std::move(m)), chunks_(std::move(chunks)) {}
  box region(std::size_t k) const { return {chunks_[k].begin, chunks_[k].end}; }
  std::vector<box> regions() const {
    std::vector<box> r;
    for (std::size_t k = 0; k < chunks_.size(); ++k) r.push_back(region(k));
    return r;
  }
  int first_device() const {
    return chunks_.empty() ? cuda::runtime::getDevice() : chunks_[0].device;
  }
  bool same_layout(const std::vector<chunk>& other) const {
    if (other.size() != chunks_.size()) return false;
    for (std::size_t k = 0; k < chunks_.size(); ++k)
      if (other[k].device != chunks_[k].device || other[k].begin != chunks_[k].begin ||
          other[k].end != chunks_[k].end)
        return false;
    return true;
  }
  // Uninitialised chunks for map m (checked), on their devices.
  static std::vector<chunk> allocate(const shape_t& shape, const ::cupp::distributed::index_map& m,
                                     bool must_cover) {
    const auto placed = ::cupp::detail::darray::place(m, shape, cuda::runtime::getDeviceCount());
    if (must_cover)
      ::cupp::detail::darray::check_covers(::cupp::detail::darray::regions(placed), shape,
                                           "distributed_array");
    std::vector<chunk> out;
    for (const auto& p : placed) {
      cuda::device_scope scope(p.device);
      out.push_back({p.device, p.region.begin, p.region.end, ndarray<T>(p.region.extent())});
    }
    return out;
  }

 private:
  distributed_array(const shape_t& shape, const ::cupp::distributed::index_map& m, mode md, bool)
      : shape_(shape), mode_(md), map_(m), chunks_(allocate(shape, m, true)) {}

  template <class Source>
  void fill_from(const Source& a) {
    for (std::size_t k = 0; k < chunks_.size(); ++k) {
      const auto items = ::cupp::detail::darray::view_index(region(k));
      const Source part = a(std::span<const cupp::index_item>(items));
      if constexpr (Source::is_device)
        ::cupp::detail::darray::copy_between(part, chunks_[k].data);
      else
        chunks_[k].data.set(part);
    }
    if (mode_ != mode::replica) {
      const mode target = mode_;
      mode_ = mode::replica;
      *this = change_mode(target);
    }
  }

  shape_t shape_;
  mode mode_;
  ::cupp::distributed::index_map map_;
  std::vector<chunk> chunks_;
};

template <class T>
distributed_array<T> distributed_array<T>::change_mode(mode md) const {
  namespace dd = ::cupp::detail::darray;
  std::vector<chunk> out;
  for (const chunk& c : chunks_) {
    cuda::device_scope scope(c.device);
    out.push_back({c.device, c.begin, c.end, c.data.copy()});
  }
  if (md == mode_) return {shape_, map_, md, std::move(out), unchecked_t{}};
  if (mode_ != mode::replica && md != mode::replica)
    return change_mode(mode::replica).change_mode(md);
  const auto boxes = regions();
  if (mode_ == mode::replica) {
    // Keep each element in its owner only.
    const auto owned = dd::owned_boxes(boxes);
    for (std::size_t k = 0; k < out.size(); ++k)
      for (const box& b : dd::subtract_all({boxes[k]}, owned[k]))
        ::cupp::detail::darray::fill(
            ::cupp::detail::darray::view(out[k].data, dd::relative(b, boxes[k])),
            ::cupp::detail::darray::identity<T>(md));
  } else {
    dd::check_covers(boxes, shape_, "change_mode to replica");
    // Every chunk becomes the combination of all chunks over its region,
    // each read from the original (unchanged) chunks.
    for (std::size_t k = 0; k < out.size(); ++k)
      for (std::size_t j = 0; j < chunks_.size(); ++j) {
        if (j == k) continue;
        const auto overlap = dd::intersect(boxes[k], boxes[j]);
        if (!overlap) continue;
        const ndarray<T> theirs = ::cupp::detail::darray::on_device(
            ::cupp::detail::darray::view(chunks_[j].data, dd::relative(*overlap, boxes[j])),
            out[k].device);
        ::cupp::detail::darray::combine_into(
            mode_, ::cupp::detail::darray::view(out[k].data, dd::relative(*overlap, boxes[k])),
            theirs);
      }
  }
  return {shape_, map_, md, std::move(out), unchecked_t{}};
}

template <class T>
distributed_array<T> distributed_array<T>::reshard(const ::cupp::distributed::index_map& m) const {
  namespace dd = ::cupp::detail::darray;
  const bool replica = mode_ == mode::replica;
  std::vector<chunk> out = allocate(shape_, m, replica);
  const auto old_boxes = regions();
  std::vector<box> new_boxes;
  for (const chunk& c : out) new_boxes.push_back({c.begin, c.end});
  if (!replica)
    for (const box& b : old_boxes)
      if (!dd::subtract_all({b}, new_boxes).empty())
        throw value_error("reshard: the new index map does not cover the chunk " + dd::describe(b) +
                          " of a " + mode_name(mode_) + "-mode array");
  const auto old_owned = dd::owned_boxes(old_boxes);
  const auto new_owned = dd::owned_boxes(new_boxes);
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (replica) {
      // Each element of the new chunk from the old chunk that owns it.
      for (std::size_t j = 0; j < chunks_.size(); ++j)
        for (const box& piece : old_owned[j]) {
          const auto overlap = dd::intersect(piece, new_boxes[k]);
          if (!overlap) continue;
          ::cupp::detail::darray::copy_between(
              ::cupp::detail::darray::view(chunks_[j].data, dd::relative(*overlap, old_boxes[j])),
              ::cupp::detail::darray::view(out[k].data, dd::relative(*overlap, new_boxes[k])));
        }
    } else {
      // The new owner of an element gathers every old partial value of it.
      ::cupp::detail::darray::fill(out[k].data, ::cupp::detail::darray::identity<T>(mode_));
      for (const box& piece : new_owned[k])
        for (std::size_t j = 0; j < chunks_.size(); ++j) {
          const auto overlap = dd::intersect(piece, old_boxes[j]);
          if (!overlap) continue;
          const ndarray<T> theirs = ::cupp::detail::darray::on_device(
              ::cupp::detail::darray::view(chunks_[j].data, dd::relative(*overlap, old_boxes[j])),
              out[k].device);
          ::cupp::detail::darray::combine_into(
              mode_,
              ::cupp::detail::darray::view(out[k].data, dd::relative(*overlap, new_boxes[k])),
              theirs);
        }
    }
  }
  return {shape_, m, mode_, std::move(out), unchecked_t{}};
}

// --- element-wise expressions ------------------------------------------------

}  // namespace cupp::distributed

namespace cupp::detail::darray {

using distributed::distributed_array;
using distributed::mode;

// The operands aligned to the first distributed operand (replica mode, its
// chunks), shapes checked before anything runs; then chunk k of the result
// is the cupp expression of the operands' chunks k, run on chunk k's
// device into R.
template <class R, class E>
distributed_array<R> evaluate_as(const E& e) {
  E aligned = e;
  const shape_t* shape = nullptr;
  aligned.for_each_array([&](const auto& a) {
    if (!shape)
      shape = &a.shape();
    else if (a.shape() != *shape)
      throw value_error("operands could not be broadcast together with shapes " +
                        ::cupp::detail::np_shape(*shape) + " " +
                        ::cupp::detail::np_shape(a.shape()));
  });
  const shape_t target_shape = *shape;
  bool first = true;
  distributed::index_map target_map;
  std::vector<int> target_devices;
  std::vector<box> target_boxes;
  aligned.for_each_array([&](auto& a) {
    if (a.get_mode() != mode::replica) a = a.change_mode(mode::replica);
    if (first) {
      first = false;
      target_map = a.index_map();
      for (const auto& c : a.chunks()) {
        target_devices.push_back(c.device);
        target_boxes.push_back({c.begin, c.end});
      }
      return;
    }
    bool same = a.chunks().size() == target_boxes.size();
    for (std::size_t k = 0; same && k < target_boxes.size(); ++k)
      same = a.chunks()[k].device == target_devices[k] &&
             a.chunks()[k].begin == target_boxes[k].begin &&
             a.chunks()[k].end == target_boxes[k].end;
    if (!same) a = a.reshard(target_map);
  });
  std::vector<typename distributed_array<R>::chunk> out;
  for (std::size_t k = 0; k < target_boxes.size(); ++k) {
    cuda::device_scope scope(target_devices[k]);
    ndarray<R> data(target_boxes[k].extent());
    const auto ce = aligned.chunk_expr(k);
    using V = typename std::remove_cvref_t<decltype(ce)>::value_type;
    if constexpr (std::is_same_v<V, R>)
      copyto(data, ce);
    else
      copyto(data, cupp::astype<R>(ce));
    out.push_back({target_devices[k], target_boxes[k].begin, target_boxes[k].end, std::move(data)});
  }
  return {target_shape, target_map, mode::replica, std::move(out),
          typename distributed_array<R>::unchecked_t{}};
}

}  // namespace cupp::detail::darray

namespace cupp::distributed {

template <class T>
template <class F, class... A>
distributed_array<T>::distributed_array(const ::cupp::detail::darray::expr<F, A...>& e)
    : distributed_array(::cupp::detail::darray::evaluate_as<T>(e)) {}

// The dtype of a distributed expression's value.
template <class E>
using value_type_of =
    typename std::remove_cvref_t<::cupp::detail::darray::chunk_expr_t<E>>::value_type;

// Runs a lazy distributed expression (one kernel per chunk).
template <class F, class... A>
auto evaluate(const ::cupp::detail::darray::expr<F, A...>& e) {
  return ::cupp::detail::darray::evaluate_as<value_type_of<::cupp::detail::darray::expr<F, A...>>>(
      e);
}

// dist::apply(f, x, y, ...): f applied chunk by chunk to cupp operands
// (chunks' arrays, scalars), lazily: any cupp ufunc or expression.
template <class F, class... A>
requires(::cupp::detail::darray::operand<A>&&...) &&
    (::cupp::detail::darray::distributed_operand<A> || ...) auto apply(F f, const A&... a) {
  return ::cupp::detail::darray::expr<F, A...>{std::move(f), {a...}};
}

#define CUPP_DARRAY_OPERATOR(OP, FN)                                                   \
  template <class A, class B>                                                          \
  requires ::cupp::detail::darray::operand<A> && ::cupp::detail::darray::operand<B> && \
      (::cupp::detail::darray::distributed_operand<A> ||                               \
       ::cupp::detail::darray::distributed_operand<B>)auto                             \
      operator OP(const A& a, const B& b) {                                            \
    return apply(::cupp::detail::darray::FN{}, a, b);                                  \
  }
CUPP_DARRAY_OPERATOR(+, plus_fn)
CUPP_DARRAY_OPERATOR(-, minus_fn)
CUPP_DARRAY_OPERATOR(*, times_fn)
CUPP_DARRAY_OPERATOR(/, divide_fn)
CUPP_DARRAY_OPERATOR(==, equal_fn)
CUPP_DARRAY_OPERATOR(!=, not_equal_fn)
CUPP_DARRAY_OPERATOR(<, less_fn)
CUPP_DARRAY_OPERATOR(<=, less_equal_fn)
CUPP_DARRAY_OPERATOR(>, greater_fn)
CUPP_DARRAY_OPERATOR(>=, greater_equal_fn)
#undef CUPP_DARRAY_OPERATOR

template <::cupp::detail::darray::distributed_operand A>
auto operator-(const A& a) {
  return apply(::cupp::detail::darray::negate_fn{}, a);
}

// --- reductions and matmul ----------------------------------------------------

}  // namespace cupp::distributed

namespace cupp::detail::darray {

// The input as seen by a reduction of mode `op`: its own mode when that is
// op (every chunk counts whole), otherwise replica, where each element
// counts once, in the chunk that owns it.
template <class T>
std::vector<std::vector<box>> contributing(distributed_array<T>& x, mode op) {
  if (x.get_mode() == op) {
    std::vector<std::vector<box>> whole;
    for (const box& b : x.regions()) whole.push_back({b});
    return whole;
  }
  if (x.get_mode() != mode::replica) x = x.change_mode(mode::replica);
  return owned_boxes(x.regions());
}

// Reduction `red` (a callable on cupp arrays) over all axes: one pass per
// contributing region, the partial results gathered on the first device
// and reduced once more there.
template <class T, class Red>
auto reduce_all(distributed_array<T> x, mode op, Red red, const char* name) {
  using R = typename decltype(red(std::declval<const ndarray<T>&>()))::value_type;
  const auto parts = contributing(x, op);
  std::vector<ndarray<R>> partials;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    cuda::device_scope scope(x.chunks()[k].device);
    for (const box& b : parts[k])
      if (b.volume() > 0)
        partials.push_back(red(view(x.chunks()[k].data, relative(b, x.region(k)))));
  }
  if (partials.empty() && (op == mode::max || op == mode::min))
    throw value_error(std::string("zero-size array to reduction operation ") + name +
                      " which has no identity");
  const int home = x.first_device();
  cuda::device_scope scope(home);
  ndarray<R> gathered(shape_t{static_cast<index_t>(partials.size())});
  for (std::size_t i = 0; i < partials.size(); ++i)
    copy_between(partials[i], gathered(static_cast<index_t>(i)));
  return ndarray<R>(red(gathered));
}

// Reduction along one axis: every chunk reduced alone (elements it does
// not own set to the identity first), the axis dropped from its region;
// the result is in mode `op`.
template <class T, class Red>
auto reduce_axis(distributed_array<T> x, int axis, mode op, Red red) {
  using R = typename decltype(red(std::declval<const ndarray<T>&>(), 0))::value_type;
  const int nd = x.ndim();
  if (axis < -nd || axis >= nd)
    throw axis_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                     std::to_string(nd));
  if (axis < 0) axis += nd;
  const auto parts = contributing(x, op);
  std::vector<typename distributed_array<R>::chunk> out;
  distributed::index_map m;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const auto& c = x.chunks()[k];
    cuda::device_scope scope(c.device);
    ndarray<T> source = c.data;
    if (!(parts[k].size() == 1 && parts[k][0] == x.region(k))) {
      source = ndarray<T>(c.data.shape());
      fill(source, identity<T>(op));
      for (const box& b : parts[k])
        copy_between(view(c.data, relative(b, x.region(k))),
                     view(source, relative(b, x.region(k))));
    }
    box region = x.region(k);
    region.begin.erase(region.begin.begin() + axis);
    region.end.erase(region.end.begin() + axis);
    ndarray<R> reduced = red(source, axis);
    m[c.device].push_back(to_index(region));
    out.push_back({c.device, region.begin, region.end, std::move(reduced)});
  }
  shape_t shape;
  for (int d = 0; d < nd; ++d)
    if (d != axis) shape.push_back(x.shape()[d]);
  return distributed_array<R>(shape, m, op, std::move(out),
                              typename distributed_array<R>::unchecked_t{});
}

}  // namespace cupp::detail::darray

namespace cupp::distributed {

#define CUPP_DARRAY_REDUCTION(NAME, MODE)                                          \
  template <class T>                                                               \
  auto NAME(const distributed_array<T>& x) {                                       \
    return ::cupp::detail::darray::reduce_all(                                     \
        x, MODE, [](const auto& a) { return ::cupp::NAME(a); }, #NAME);            \
  }                                                                                \
  template <class T>                                                               \
  auto NAME(const distributed_array<T>& x, int axis) {                             \
    return ::cupp::detail::darray::reduce_axis(                                    \
        x, axis, MODE, [](const auto& a, int ax) { return ::cupp::NAME(a, ax); }); \
  }
// sum, prod, max, min over all axes (a 0-d array on the first device) or
// along one axis (a distributed array in the matching reduction mode).
CUPP_DARRAY_REDUCTION(sum, mode::sum)
CUPP_DARRAY_REDUCTION(prod, mode::prod)
CUPP_DARRAY_REDUCTION(max, mode::max)
CUPP_DARRAY_REDUCTION(min, mode::min)
#undef CUPP_DARRAY_REDUCTION

// a @ b for 2-d arrays whose chunks form block grids, a's column split
// equal to b's row split: each block product (cupp::matmul) runs on the
// device of a's block; the result is in mode sum, one chunk per product.
template <class T>
distributed_array<T> matmul(distributed_array<T> a, distributed_array<T> b) {
  namespace dd = ::cupp::detail::darray;
  if (a.ndim() != 2 || b.ndim() != 2) throw value_error("distributed matmul needs 2-d arrays");
  if (a.shape()[1] != b.shape()[0])
    throw value_error("matmul: Input operand 1 has a mismatch in its core dimension 0 (size " +
                      std::to_string(b.shape()[0]) + " is different from " +
                      std::to_string(a.shape()[1]) + ")");
  const dd::block_grid ga = dd::grid_of(a.regions(), a.shape(), "a");
  const dd::block_grid gb = dd::grid_of(b.regions(), b.shape(), "b");
  if (ga.cols != gb.rows)
    throw value_error("matmul: the column split of a differs from the row split of b");
  if (a.get_mode() != mode::replica) a = a.change_mode(mode::replica);
  if (b.get_mode() != mode::replica) b = b.change_mode(mode::replica);
  std::vector<typename distributed_array<T>::chunk> out;
  index_map m;
  for (std::size_t i = 0; i + 1 < ga.rows.size(); ++i)
    for (std::size_t j = 0; j + 1 < gb.cols.size(); ++j)
      for (std::size_t k = 0; k + 1 < ga.cols.size(); ++k) {
        const auto& ca = a.chunks()[ga.cell[i][k]];
        const auto& cb = b.chunks()[gb.cell[k][j]];
        cuda::device_scope scope(ca.device);
        const ndarray<T> right = dd::on_device(cb.data, ca.device);
        ndarray<T> product = ::cupp::matmul(ca.data, right);
        const dd::box region{{ga.rows[i], gb.cols[j]}, {ga.rows[i + 1], gb.cols[j + 1]}};
        m[ca.device].push_back(dd::to_index(region));
        out.push_back({ca.device, region.begin, region.end, std::move(product)});
      }
  // Chunks in index-map order (devices ascending), as every array keeps them.
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return x.device < y.device; });
  return {shape_t{a.shape()[0], b.shape()[1]}, m, mode::sum, std::move(out),
          typename distributed_array<T>::unchecked_t{}};
}

}  // namespace cupp::distributed
