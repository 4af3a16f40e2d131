// The argument types of cupp's joining functions (include/cupp/joining.hpp),
// cupp::join_axis and cupp::positions. A vocabulary header, so that the
// machinery of detail/join/ can take them as the public functions receive
// them.
// cupp-layer: vocabulary
#pragma once

#include <concepts>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/index_types.hpp>
#include <cupp/axis.hpp>

namespace cupp {

// The axis of concatenate, append, insert and delete_: an integer, or
// cupp::none (flatten first).
class join_axis {
 public:
  template <std::integral I>
  requires(!std::is_same_v<I, bool>) constexpr join_axis(I axis)
      : none_(false), axis_(static_cast<index_t>(axis)) {}
  constexpr join_axis(none_t) {}
  constexpr bool none() const { return none_; }
  constexpr index_t value() const { return axis_; }

 private:
  bool none_ = true;
  index_t axis_ = 0;
};

// numpy.insert's and numpy.delete's `obj`: an integer, a cupp::slice, or a
// list of integers ({1, 3} or a std::vector<index_t>).
class positions {
 public:
  template <std::integral I>
  requires(!std::is_same_v<I, bool>) positions(I i) : v_(static_cast<index_t>(i)) {}
  positions(const cupp::slice& s) : v_(s) {}
  positions(std::vector<index_t> list) : v_(std::move(list)) {}
  positions(std::initializer_list<index_t> list) : v_(std::vector<index_t>(list)) {}

  const index_t* integer() const { return std::get_if<index_t>(&v_); }
  const cupp::slice* range() const { return std::get_if<cupp::slice>(&v_); }
  const std::vector<index_t>* list() const { return std::get_if<std::vector<index_t>>(&v_); }

 private:
  std::variant<index_t, cupp::slice, std::vector<index_t>> v_;
};

}  // namespace cupp
