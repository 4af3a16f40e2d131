// The argument types a user of cupp's linear algebra writes: numpy.linalg
// norm's ord= (cupp::linalg::norm_ord), numpy.tensordot's axes=
// (cupp::tensordot_axes, cupp::tensordot_axis_list) and numpy.cov's keyword
// arguments (cupp::cov_options). A vocabulary header, so that the machinery
// of detail/linalg/ can take them as the public functions receive them.
// cupp-layer: vocabulary
#pragma once

#include <array>
#include <concepts>
#include <initializer_list>
#include <optional>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include <cupp/axis.hpp>
#include <cupp/config.hpp>

namespace cupp::linalg {

// numpy.linalg.norm's ord=: None (the default, or cupp::none), a number
// (inf and -inf as std::numeric_limits<double>::infinity()), "fro" (or "f")
// or "nuc". Any other string is kept for NumPy's error message.
class norm_ord {
 public:
  enum class kind { none, number, fro, nuc, other };
  norm_ord() = default;
  norm_ord(none_t) {}
  norm_ord(double p) : kind_(kind::number), p_(p) {}
  norm_ord(int p) : kind_(kind::number), p_(p) {}
  norm_ord(const char* name) : name_(name) {
    const std::string n(name);
    kind_ = n == "fro" || n == "f" ? kind::fro : n == "nuc" ? kind::nuc : kind::other;
  }
  kind which() const { return kind_; }
  bool is_none() const { return kind_ == kind::none; }
  bool is_string() const {
    return kind_ == kind::fro || kind_ == kind::nuc || kind_ == kind::other;
  }
  bool is(double p) const { return kind_ == kind::number && p_ == p; }
  double value() const { return p_; }
  const std::string& name() const { return name_; }

 private:
  kind kind_ = kind::none;
  double p_ = 0;
  std::string name_;
};

}  // namespace cupp::linalg

namespace cupp {

// One side of tensordot's axes: a single axis (1) or a list ({1, 0}, a
// std::vector or a std::array of integers), negative axes counting from
// the end.
class tensordot_axis_list {
 public:
  tensordot_axis_list(index_t axis) : axes_{axis} {}
  tensordot_axis_list(std::initializer_list<index_t> axes) : axes_(axes) {}
  template <std::ranges::input_range R>
  requires std::integral<std::ranges::range_value_t<R>> tensordot_axis_list(const R& axes) {
    for (auto a : axes) axes_.push_back(static_cast<index_t>(a));
  }
  const std::vector<index_t>& axes() const noexcept { return axes_; }

 private:
  std::vector<index_t> axes_;
};

// tensordot's axes argument: an int n (a's last n axes with b's first n)
// or the two lists of axes summed together, {{1, 0}, {0, 1}} (also a
// std::pair or a std::array of two lists).
class tensordot_axes {
 public:
  tensordot_axes(index_t n) : count_(n), given_(false) {}
  tensordot_axes(tensordot_axis_list a, tensordot_axis_list b)
      : a_(std::move(a)), b_(std::move(b)) {}
  template <class X, class Y>
  tensordot_axes(const std::pair<X, Y>& p) : a_(p.first), b_(p.second) {}
  template <class X>
  tensordot_axes(const std::array<X, 2>& p) : a_(p[0]), b_(p[1]) {}

  // The two lists, numpy.tensordot's reading of an int n:
  // range(-n, 0) and range(0, n).
  std::pair<std::vector<index_t>, std::vector<index_t>> lists() const {
    if (given_) return {a_.axes(), b_.axes()};
    std::vector<index_t> a, b;
    for (index_t i = -count_; i < 0; ++i) a.push_back(i);
    for (index_t i = 0; i < count_; ++i) b.push_back(i);
    return {a, b};
  }

 private:
  index_t count_ = 0;
  bool given_ = true;
  tensordot_axis_list a_{std::initializer_list<index_t>{}}, b_{std::initializer_list<index_t>{}};
};

// numpy.cov's keyword arguments other than y and the weights:
// cupp::cov(m, {.rowvar = false, .ddof = 0}). ddof unset is NumPy's None
// (1, or 0 with bias).
struct cov_options {
  bool rowvar = true;
  bool bias = false;
  std::optional<int> ddof = std::nullopt;
};

}  // namespace cupp
