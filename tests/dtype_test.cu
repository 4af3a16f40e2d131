// dtypes: descriptors and NumPy 2's promotion table, checked against
// fixtures written by NumPy (tests/generate_dtype_fixtures.py).
#include <cupp/dtype.hpp>

#include <map>
#include <sstream>

#include "cupp_test.hpp"

namespace hana = boost::hana;

BOOST_AUTO_TEST_SUITE(dtype)

BOOST_AUTO_TEST_CASE(descriptors_match_numpy) {
  std::map<std::string, std::vector<std::string>> expected;
  for (const auto& line : cupp_test::fixture_lines("dtype/descriptors.txt")) {
    std::istringstream in(line);
    std::string name, kind, chr, size, str;
    in >> name >> kind >> chr >> size >> str;
    expected[name] = {kind, chr, size, str};
  }
  int seen = 0;
  hana::for_each(cupp_test::all_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    constexpr cupp::dtype d = cupp::dtype_of<T>();
    const auto& e = expected.at(std::string(d.name));
    BOOST_TEST(std::string(1, d.kind) == e[0], d.name);
    BOOST_TEST(std::string(1, d.char_code) == e[1], d.name);
    BOOST_TEST(std::to_string(d.itemsize) == e[2], d.name);
    BOOST_TEST(d.itemsize == static_cast<int>(sizeof(T)), d.name);
    BOOST_TEST(d.str() == e[3], d.name);
    BOOST_TEST(cupp::dtype::from_name(d.name).value() == d);
    BOOST_TEST(cupp::dtype::from_descr(d.str()).value() == d);
    BOOST_TEST(cupp::dtype::from_char(d.char_code).value() == d);
    BOOST_TEST(cupp::descriptor(d.id) == d);
    BOOST_TEST(cupp::descriptor(d.id).name == d.name);
    static_assert(cupp::dtype_id_of<T> == d.id);
    static_assert(std::is_same_v<cupp::type_of_t<d.id>, T>);
    ++seen;
  });
  BOOST_TEST(seen == cupp::n_dtypes);
  BOOST_TEST(expected.size() == static_cast<std::size_t>(cupp::n_dtypes));
}

BOOST_AUTO_TEST_CASE(platform_integer_aliases) {
  BOOST_TEST(cupp::dtype_of<long long>().name == "int64");
  BOOST_TEST(cupp::dtype_of<unsigned long long>().name == "uint64");
  BOOST_TEST(cupp::dtype::from_char('q')->name == "int64");
  BOOST_TEST(cupp::dtype::from_descr("float64")->name == "float64");
  BOOST_TEST(!cupp::dtype::from_descr(">f8").has_value());
  BOOST_TEST(!cupp::dtype::from_descr("<f3").has_value());
  BOOST_TEST(!cupp::dtype::from_name("float128").has_value());
  static_assert(!cupp::is_dtype_v<char>);
  static_assert(!cupp::is_dtype_v<const float>);
  static_assert(!cupp::is_dtype_v<long double>);
}

BOOST_AUTO_TEST_CASE(kind_predicates) {
  static_assert(cupp::is_bool_v<bool> && !cupp::is_integer_v<bool>);
  static_assert(cupp::is_signed_integer_v<std::int16_t> &&
                cupp::is_unsigned_integer_v<std::uint8_t>);
  static_assert(cupp::is_floating_v<__half> && cupp::is_floating_v<__nv_bfloat16>);
  static_assert(cupp::is_complex_v<cupp::complex64> && cupp::is_inexact_v<cupp::complex128>);
  static_assert(!cupp::is_inexact_v<std::int64_t>);
}

// Every ordered pair, at compile time (the trait) and at run time
// (cupp::result_type), against numpy.result_type.
BOOST_AUTO_TEST_CASE(promotion_table_matches_numpy) {
  std::map<std::pair<std::string, std::string>, std::string> table;
  for (const auto& line : cupp_test::fixture_lines("dtype/promotion.txt")) {
    std::istringstream in(line);
    std::string a, b, r;
    in >> a >> b >> r;
    table[{a, b}] = r;
  }
  BOOST_TEST_REQUIRE(table.size() == static_cast<std::size_t>(cupp::n_dtypes * cupp::n_dtypes));
  int checked = 0;
  hana::for_each(cupp_test::all_dtypes, [&](auto ta) {
    hana::for_each(cupp_test::all_dtypes, [&](auto tb) {
      using A = typename decltype(ta)::type;
      using B = typename decltype(tb)::type;
      const std::string a(cupp::dtype_of<A>().name), b(cupp::dtype_of<B>().name);
      const std::string& want = table.at({a, b});
      std::string got = "none";
      if constexpr (cupp::Promotable<A, B>) got = cupp::dtype_of<cupp::result_type_t<A, B>>().name;
      BOOST_TEST(got == want, a << " + " << b);
      const auto rt = cupp::result_type(cupp::dtype_of<A>(), cupp::dtype_of<B>());
      BOOST_TEST((rt ? std::string(rt->name) : std::string("none")) == want, a << " + " << b);
      ++checked;
    });
  });
  BOOST_TEST(checked == 225);
}

BOOST_AUTO_TEST_CASE(variadic_result_type) {
  static_assert(std::is_same_v<cupp::result_type_t<std::int8_t, std::uint8_t, __half>, float>);
  static_assert(std::is_same_v<cupp::result_type_t<bool, bool, bool>, bool>);
  static_assert(std::is_same_v<cupp::result_type_t<float>, float>);
  static_assert(
      std::is_same_v<cupp::result_type_t<float, cupp::complex64, double>, cupp::complex128>);
}

BOOST_AUTO_TEST_SUITE_END()
