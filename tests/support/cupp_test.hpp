// Helpers shared by the test executables: fixture paths, the list of dtypes
// as a Hana type tuple (and a look-up in it by NumPy's dtype name), and
// readers for the NumPy-generated fixtures.
#pragma once

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/test/unit_test.hpp>

#include <cuda/std/complex>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace cupp_test {

// The message of the value_error `call` throws ("(no value_error)" when it
// throws none), to compare with NumPy's text.
template <class F>
std::string message_of(F&& call) {
  try {
    call();
  } catch (const cupp::value_error& e) {
    return e.what();
  }
  return "(no value_error)";
}

// The message of the exception of type E that `call` throws, or a line
// saying that it threw another type or nothing: a refusal's test compares
// this with the text it expects.
template <class E, class F>
std::string refusal(F&& call) {
  try {
    call();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "(nothing thrown)";
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

inline std::string fixture(const std::string& relative) {
  return std::string(CUPP_FIXTURES_DIR) + "/" + relative;
}

// Every line of a fixture that is not a comment.
inline std::vector<std::string> fixture_lines(const std::string& relative) {
  std::ifstream in(fixture(relative));
  BOOST_TEST_REQUIRE(in.good(), "missing fixture " << fixture(relative));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

// cupp's fifteen dtypes.
inline constexpr auto all_dtypes =
    boost::hana::tuple_t<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                         std::uint16_t, std::uint32_t, std::uint64_t, __half, __nv_bfloat16, float,
                         double, cuda::std::complex<float>, cuda::std::complex<double>>;

// Calls f(hana::type_c<T>) for the cupp dtype that NumPy calls `name`: how
// a fixture, which names its dtype, reaches the C++ type to test it with.
template <class F>
void with_dtype(std::string_view name, F&& f) {
  bool found = false;
  boost::hana::for_each(all_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    if (cupp::dtype_of<T>().name == name) {
      found = true;
      f(t);
    }
  });
  BOOST_TEST_REQUIRE(found, "no cupp dtype named " << name);
}

// The same list for BOOST_AUTO_TEST_CASE_TEMPLATE.
using dtype_list =
    std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
               std::uint16_t, std::uint32_t, std::uint64_t, __half, __nv_bfloat16, float, double,
               cuda::std::complex<float>, cuda::std::complex<double>>;

// A deterministic value of any dtype for element i (never all zeros).
template <class T>
T sample(long i) {
  if constexpr (std::is_same_v<T, bool>)
    return i % 3 == 1;
  else if constexpr (std::is_same_v<T, __half>)
    return __float2half(static_cast<float>((i % 61) - 30) * 0.5f);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16(static_cast<float>((i % 61) - 30) * 0.5f);
  else if constexpr (std::is_same_v<T, cuda::std::complex<float>>)
    return {static_cast<float>(i % 17) - 8.f, static_cast<float>(i % 5) * 0.25f};
  else if constexpr (std::is_same_v<T, cuda::std::complex<double>>)
    return {static_cast<double>(i % 17) - 8.0, static_cast<double>(i % 5) * 0.25};
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>((i % 1001) - 500) * static_cast<T>(0.25);
  else if constexpr (std::is_signed_v<T>)
    return static_cast<T>((i * 7) % 100 - 50);
  else
    return static_cast<T>((i * 7) % 200 + 1);
}

// Bitwise equality: works for every dtype, including __half and NaNs.
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace cupp_test
