// A small unsigned big integer for exact float-to-decimal conversion.
//
// Printing a float exactly means comparing a value against the halfway
// points to its neighbours, which are dyadic rationals with up to ~1080
// significant bits for double (2^-1074 scaled by 10^324). Only the handful of
// operations digit generation needs are provided; sizes are bounded, so the
// limbs live inline and nothing allocates.
#pragma once

#include <cstdint>
#include <stdexcept>

#include <cupp/config.hpp>

namespace cupp::detail::print {

class bignum {
 public:
  // 32-bit limbs: 1536 bits, comfortably above the ~1090 double needs.
  static constexpr int capacity = 48;

  bignum() = default;
  explicit bignum(std::uint64_t v) { set(v); }

  void set(std::uint64_t v) CUPP_HOST_BODY({
    n_ = 0;
    while (v != 0) {
      limb_[n_++] = static_cast<std::uint32_t>(v);
      v >>= 32;
    }
  });

  static bignum pow2(int e) CUPP_HOST_BODY({
    bignum b(1);
    b.shift_left(e);
    return b;
  });

  bool is_zero() const noexcept { return n_ == 0; }

  void shift_left(int bits) CUPP_HOST_BODY({
    if (n_ == 0 || bits == 0) return;
    const int whole = bits / 32, part = bits % 32;
    grow_to(n_ + whole + 1);
    for (int i = n_ - 1; i >= 0; --i) {
      const std::uint64_t v = static_cast<std::uint64_t>(limb_[i]) << part;
      limb_[i + whole + 1] |= static_cast<std::uint32_t>(v >> 32);
      limb_[i + whole] = static_cast<std::uint32_t>(v);
    }
    for (int i = 0; i < whole; ++i) limb_[i] = 0;
    n_ += whole + 1;
    trim();
  });

  void mul_small(std::uint32_t m) CUPP_HOST_BODY({
    std::uint64_t carry = 0;
    for (int i = 0; i < n_; ++i) {
      const std::uint64_t v = static_cast<std::uint64_t>(limb_[i]) * m + carry;
      limb_[i] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    if (carry != 0) {
      grow_to(n_ + 1);
      limb_[n_++] = static_cast<std::uint32_t>(carry);
    }
  });

  void mul_pow10(int e) CUPP_HOST_BODY({
    static constexpr std::uint32_t small[9] = {1,      10,      100,      1000,     10000,
                                               100000, 1000000, 10000000, 100000000};
    for (; e >= 9; e -= 9) mul_small(1000000000u);
    if (e > 0) mul_small(small[e]);
  });

  void add(const bignum& o) CUPP_HOST_BODY({
    const int n = n_ > o.n_ ? n_ : o.n_;
    grow_to(n + 1);
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t v =
          static_cast<std::uint64_t>(i < n_ ? limb_[i] : 0) + (i < o.n_ ? o.limb_[i] : 0) + carry;
      limb_[i] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    n_ = n;
    if (carry != 0) limb_[n_++] = 1;
  });

  // *this -= o; the caller guarantees *this >= o.
  void sub(const bignum& o) noexcept CUPP_HOST_BODY({
    std::int64_t borrow = 0;
    for (int i = 0; i < n_; ++i) {
      std::int64_t v = static_cast<std::int64_t>(limb_[i]) - (i < o.n_ ? o.limb_[i] : 0) - borrow;
      borrow = v < 0;
      limb_[i] = static_cast<std::uint32_t>(v + (borrow << 32));
    }
    trim();
  });

  // Replaces *this by *this mod d and returns *this / d, which the caller
  // guarantees is a single decimal digit.
  int divmod_digit(const bignum& d) noexcept CUPP_HOST_BODY({
    int q = 0;
    while (compare(*this, d) >= 0) {
      sub(d);
      ++q;
    }
    return q;
  });

  friend int compare(const bignum& a, const bignum& b) noexcept CUPP_HOST_BODY({
    if (a.n_ != b.n_) return a.n_ < b.n_ ? -1 : 1;
    for (int i = a.n_ - 1; i >= 0; --i)
      if (a.limb_[i] != b.limb_[i]) return a.limb_[i] < b.limb_[i] ? -1 : 1;
    return 0;
  });

 private:
  void grow_to(int n) CUPP_HOST_BODY({
    if (n > capacity) throw std::length_error("cupp: float printing needs a larger big integer");
    for (int i = n_; i < n; ++i) limb_[i] = 0;
  });
  void trim() noexcept {
    while (n_ > 0 && limb_[n_ - 1] == 0) --n_;
  }

  std::uint32_t limb_[capacity] = {};
  int n_ = 0;
};

}  // namespace cupp::detail::print
