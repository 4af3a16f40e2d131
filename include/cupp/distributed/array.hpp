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

#include <cupp/detail/distributed/array_evaluate.hpp>
#include <cupp/detail/distributed/array_expr.hpp>
#include <cupp/detail/distributed/array_ops.hpp>
#include <cupp/detail/distributed/array_regions.hpp>
#include <cupp/distributed/array_types.hpp>

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

}  // namespace cupp::distributed

// Reductions and matmul of distributed arrays.
#include <cupp/distributed/array_algorithms.hpp>
