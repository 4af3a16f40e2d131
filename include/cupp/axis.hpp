// The axis= argument of reductions, scans and array manipulation: nothing
// or cupp::none (every axis, NumPy's axis=None), one axis, or a list of
// axes (negative ones counting from the end). A vocabulary header.
// cupp-layer: vocabulary
#pragma once

#include <initializer_list>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>

namespace cupp {

// No axis: reduce over every axis (axis=None).
struct none_t {
  constexpr explicit none_t(int) {}
};
inline constexpr none_t none{0};

// axis=: nothing (all axes), one axis, or a list of axes.
class axis_arg {
 public:
  constexpr axis_arg() = default;
  constexpr axis_arg(none_t) {}
  constexpr axis_arg(int axis) : all_(false), n_(1) { v_[0] = axis; }
  constexpr axis_arg(std::initializer_list<int> axes) : all_(false) {
    for (int a : axes) {
      if (n_ == max_ndim) throw value_error("too many values in 'axis'");
      v_[n_++] = a;
    }
  }
  constexpr bool all() const { return all_; }
  constexpr int size() const { return n_; }
  constexpr int operator[](int i) const { return v_[i]; }

 private:
  bool all_ = true;
  int n_ = 0;
  int v_[max_ndim] = {};
};

}  // namespace cupp
