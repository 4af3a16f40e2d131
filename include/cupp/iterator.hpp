// Random-access iterators over arrays and lazy expressions, in C (row-major)
// order, for libraries that take iterators (Thrust, CUB, the standard
// algorithms):
//
//   thrust::sort(thrust::device, cupp::begin(v), cupp::end(v));   // v any view
//   cub::DeviceReduce::Sum(tmp, bytes, cupp::begin(x * 2), out, n);
//   std::sort(cupp::begin(h), cupp::end(h));                       // host array
//
// An array's iterator reads and writes its elements (reference T&) in any
// layout: strided, transposed, reversed, broadcast, 0-d, empty. An
// expression's iterator computes each element where it is read (on the
// device for device expressions) and cannot be written through.
//
// Thrust runs an algorithm on the system of its iterators: device arrays'
// and device expressions' iterators carry Thrust's device category, host
// arrays' the standard one, so a call without an execution policy runs
// where the data lives.
//
// Iterators do not own memory: keep the array alive while an iterator is
// in use, and for an expression every array it reads; an expression that
// holds arrays of its own (a product evaluated inside it, an array made in
// the call) must itself outlive its iterators, so name it first.
// A device iterator dereferenced on the host (std::sort over a device
// array) reads device memory from the CPU: use Thrust or CUB for those.
//
// A layout walks with up to 6 axes after merging the axes that form one
// run; more (a view stepping through 7+ axes at once) throws value_error.
//
// cupp::begin and friends are function objects, not functions: they are
// never found by argument-dependent lookup, so range-for, std::ranges and
// `using std::begin; begin(x)` do not pick them up, and a device array never
// becomes a range that host code could walk by accident.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

#include <cupp/detail/interop/begin_end.hpp>
#include <cupp/detail/interop/flat_walk.hpp>
#include <cupp/expression.hpp>
#include <cupp/iterator_fwd.hpp>

namespace cupp {

// The iterator cupp::begin returns: `Access` reads (or refers to) the
// element at a linear C-order position; `Space` is where that element lives.
// Trivially copyable and small (a pointer or an evaluator, the per-axis
// strides and divisors, and the position), as kernels take it by value.
// (Declared in <cupp/iterator_fwd.hpp>.)
template <class Access, class Space>
class flat_iterator {
 public:
  using value_type = typename Access::value_type;
  using reference = typename Access::reference;
  using difference_type = std::ptrdiff_t;
  using pointer = std::conditional_t<std::is_reference_v<reference>,
                                     std::add_pointer_t<std::remove_reference_t<reference>>, void>;
  using iterator_category = detail::interop::flat_category_t<Space>;
  using iterator_concept = std::random_access_iterator_tag;
  using space = Space;

  // Default-constructible where the accessor is (arrays'); expressions'
  // evaluators may hold functors that are not, and need no such iterator.
  flat_iterator() = default;
  CUPP_HD flat_iterator(const Access& a, difference_type i) : a_(a), i_(i) {}

  CUPP_HD reference operator*() const { return a_.at(i_); }
  CUPP_HD reference operator[](difference_type k) const { return a_.at(i_ + k); }

  CUPP_HD flat_iterator& operator++() {
    ++i_;
    return *this;
  }
  CUPP_HD flat_iterator operator++(int) {
    flat_iterator r = *this;
    ++i_;
    return r;
  }
  CUPP_HD flat_iterator& operator--() {
    --i_;
    return *this;
  }
  CUPP_HD flat_iterator operator--(int) {
    flat_iterator r = *this;
    --i_;
    return r;
  }
  CUPP_HD flat_iterator& operator+=(difference_type k) {
    i_ += k;
    return *this;
  }
  CUPP_HD flat_iterator& operator-=(difference_type k) {
    i_ -= k;
    return *this;
  }
  CUPP_HD friend flat_iterator operator+(flat_iterator it, difference_type k) {
    it.i_ += k;
    return it;
  }
  CUPP_HD friend flat_iterator operator+(difference_type k, flat_iterator it) {
    it.i_ += k;
    return it;
  }
  CUPP_HD friend flat_iterator operator-(flat_iterator it, difference_type k) {
    it.i_ -= k;
    return it;
  }
  // Positions only: iterators compared or subtracted must come from the
  // same array or expression, as with any container's iterators.
  CUPP_HD friend difference_type operator-(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ - b.i_;
  }
  CUPP_HD friend bool operator==(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ == b.i_;
  }
  CUPP_HD friend bool operator!=(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ != b.i_;
  }
  CUPP_HD friend bool operator<(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ < b.i_;
  }
  CUPP_HD friend bool operator>(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ > b.i_;
  }
  CUPP_HD friend bool operator<=(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ <= b.i_;
  }
  CUPP_HD friend bool operator>=(const flat_iterator& a, const flat_iterator& b) {
    return a.i_ >= b.i_;
  }

  // The linear C-order position (NumPy's flatiter.index).
  CUPP_HD difference_type index() const { return i_; }

 private:
  Access a_;
  difference_type i_ = 0;
};

// The iterator types, by what they walk (array_iterator,
// const_array_iterator), are in <cupp/iterator_fwd.hpp>.

// cupp::begin(x) / cupp::end(x): the elements of an array (writable; the
// array must not be read-only) or of a lazy expression (read-only), in C
// order. end(x) - begin(x) == x.size().
inline constexpr detail::interop::begin_fn begin{};
inline constexpr detail::interop::end_fn end{};
// cupp::cbegin(x) / cupp::cend(x): read-only iterators (const T&) over an
// array, read-only arrays included; the same as begin/end for expressions.
inline constexpr detail::interop::cbegin_fn cbegin{};
inline constexpr detail::interop::cend_fn cend{};

// The iterator type begin/cbegin give for X.
template <class X>
using iterator_t = decltype(begin(std::declval<const X&>()));
template <class X>
using const_iterator_t = decltype(cbegin(std::declval<const X&>()));

}  // namespace cupp

// Thrust runs an algorithm without an execution policy on the system of
// its iterators: the GPU for device arrays and expressions, the CPU for
// host ones (a sort of a device view without this ran on the CPU and
// faulted reading device memory).
template <class Access>
struct thrust::iterator_system<cupp::flat_iterator<Access, cupp::device_space>> {
  using type = thrust::device_system_tag;
};
template <class Access>
struct thrust::iterator_system<cupp::flat_iterator<Access, cupp::host_space>> {
  using type = thrust::host_system_tag;
};
