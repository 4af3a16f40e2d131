// Checks shared by the random-number tests: bitwise equality of two draws
// and NumPy's exception messages.
#pragma once

#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace cupp_test {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// f() must throw an exception whose what() is `message`.
template <class F>
void throws_with(F&& f, const std::string& message) {
  try {
    f();
    BOOST_ERROR("no exception; expected: " << message);
  } catch (const std::exception& e) {
    BOOST_TEST(std::string(e.what()) == message);
  }
}

}  // namespace cupp_test
