// Printing: repr and str of arrays of every dtype, shape and print option,
// checked against NumPy's own output (tests/generate_print_fixtures.py).
#include <cupp/advanced_indexing.hpp>
#include <cupp/boolean_indexing.hpp>
#include <cupp/creation.hpp>
#include <cupp/print.hpp>

#include <cstring>
#include <sstream>
#include <string_view>
#include <vector>
#include <version>

#include "cupp_test.hpp"

namespace hana = boost::hana;

namespace {

struct print_case {
  std::string name, dtype;
  cupp::shape_t shape;
  cupp::print_options options;
  std::vector<unsigned char> data;
  bool is_view = false;
  cupp::index_t view_offset = 0;
  cupp::shape_t view_shape;
  cupp::strides_t view_strides;
  std::string repr, str;
};

std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      ++i;
      out += s[i] == 'n' ? '\n' : s[i];
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<cupp::index_t> integers(std::istream& in) {
  std::vector<cupp::index_t> v;
  for (std::string tok; in >> tok && tok != "|";) v.push_back(std::stoll(tok));
  return v;
}

cupp::print_options parse_options(std::string_view line) {
  cupp::print_options o;
  std::istringstream in{std::string(line)};
  for (std::string tok; in >> tok;) {
    const auto eq = tok.find('=');
    const std::string key = tok.substr(0, eq), value = tok.substr(eq + 1);
    if (key == "precision")
      o.precision = std::stoi(value);
    else if (key == "threshold")
      o.threshold = std::stoll(value);
    else if (key == "edgeitems")
      o.edgeitems = std::stoi(value);
    else if (key == "linewidth")
      o.linewidth = std::stoi(value);
    else if (key == "suppress")
      o.suppress = value == "1";
    else if (key == "sign")
      o.sign = value == "plus" ? '+' : value == "space" ? ' ' : '-';
    else if (key == "nanstr")
      o.nanstr = unescape(value);
    else if (key == "infstr")
      o.infstr = unescape(value);
    else if (key == "floatmode")
      o.floatmode = value == "fixed"           ? cupp::float_mode::fixed
                    : value == "unique"        ? cupp::float_mode::unique
                    : value == "maxprec_equal" ? cupp::float_mode::maxprec_equal
                                               : cupp::float_mode::maxprec;
    else
      BOOST_FAIL("unknown print option " << key);
  }
  return o;
}

std::vector<print_case> read_cases(const std::string& file) {
  std::vector<print_case> cases;
  print_case c;
  for (const std::string& line : cupp_test::fixture_lines("print/" + file)) {
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string_view rest =
        space == std::string::npos ? std::string_view{} : std::string_view(line).substr(space + 1);
    if (key == "case") {
      c = print_case{};
      c.name = rest;
    } else if (key == "dtype") {
      c.dtype = rest;
    } else if (key == "shape") {
      std::istringstream in{std::string(rest)};
      c.shape = cupp::shape_t(integers(in));
    } else if (key == "options") {
      c.options = parse_options(rest);
    } else if (key == "data") {
      for (std::size_t i = 0; i + 1 < rest.size(); i += 2)
        c.data.push_back(
            static_cast<unsigned char>(std::stoi(std::string(rest.substr(i, 2)), nullptr, 16)));
    } else if (key == "view") {
      std::istringstream in{std::string(rest)};
      c.is_view = true;
      c.view_offset = integers(in).at(0);
      c.view_shape = cupp::shape_t(integers(in));
      c.view_strides = cupp::strides_t(integers(in));
    } else if (key == "repr") {
      c.repr = unescape(rest);
    } else if (key == "str") {
      c.str = unescape(rest);
    } else if (key == "end") {
      cases.push_back(c);
    } else {
      BOOST_FAIL("bad fixture line in " << file << ": " << line);
    }
  }
  return cases;
}

// The array a case describes: its base array on the host, or a view of it.
template <class T>
cupp::host::ndarray<T> build(const print_case& c) {
  cupp::host::ndarray<T> base(c.shape);
  BOOST_TEST_REQUIRE(static_cast<cupp::index_t>(c.data.size()) == base.nbytes(), c.name);
  if (!c.data.empty()) std::memcpy(static_cast<void*>(base.data()), c.data.data(), c.data.size());
  if (!c.is_view) return base;
  T* first = reinterpret_cast<T*>(reinterpret_cast<char*>(base.data()) + c.view_offset);
  return cupp::host::ndarray<T>::from_pointer(first, c.view_shape, c.view_strides, base.memory());
}

void check_file(const std::string& file) {
  const auto cases = read_cases(file);
  BOOST_TEST_REQUIRE(!cases.empty());
  for (const print_case& c : cases) {
    BOOST_TEST_CONTEXT(file << ": " << c.name) {
      cupp_test::with_dtype(c.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        const auto a = build<T>(c);
        // Under options set for the scope, and passed explicitly.
        {
          cupp::printoptions scope(c.options);
          BOOST_TEST(cupp::array_repr(a) == c.repr);
          BOOST_TEST(cupp::array_str(a) == c.str);
        }
        BOOST_TEST(cupp::array_repr(a, c.options) == c.repr);
        BOOST_TEST(cupp::array_str(a, c.options) == c.str);
      });
    }
  }
  BOOST_TEST_MESSAGE(file << ": " << cases.size() << " cases");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(print)

// One test case per fixture file: every dtype and shape; float special
// values and notation changes; integer extremes; wrapping and nesting;
// summarised arrays; non-default options; strided views; random bits.
BOOST_AUTO_TEST_CASE(dtypes_match_numpy) {
  check_file("dtypes.txt");
}
BOOST_AUTO_TEST_CASE(floats_match_numpy) {
  check_file("floats.txt");
}
BOOST_AUTO_TEST_CASE(integers_match_numpy) {
  check_file("integers.txt");
}
BOOST_AUTO_TEST_CASE(layout_matches_numpy) {
  check_file("layout.txt");
}
BOOST_AUTO_TEST_CASE(summary_matches_numpy) {
  check_file("summary.txt");
}
BOOST_AUTO_TEST_CASE(options_match_numpy) {
  check_file("options.txt");
}
BOOST_AUTO_TEST_CASE(views_match_numpy) {
  check_file("views.txt");
}
BOOST_AUTO_TEST_CASE(random_bits_match_numpy) {
  check_file("random.txt");
}

BOOST_AUTO_TEST_CASE(stream_prints_repr) {
  const auto x = cupp::host::array<float>({{1.f, 2.f}, {3.f, 4.f}});
  std::ostringstream os;
  os << x;
  BOOST_TEST(os.str() == "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  BOOST_TEST(cupp::array_str(x) == "[[1. 2.]\n [3. 4.]]");
  std::ostringstream ints;
  ints << cupp::host::array<std::int64_t>({1, 2, 3});
  BOOST_TEST(ints.str() == "array([1, 2, 3])");
}

BOOST_AUTO_TEST_CASE(array2string_arguments) {
  const auto x = cupp::host::array<double>({1.5, 2.0, -3.0});
  BOOST_TEST(cupp::array2string(x) == "[ 1.5  2.  -3. ]");
  cupp::print_options o;
  o.precision = 2;
  BOOST_TEST(cupp::array2string(x, o, ", ") == "[ 1.5,  2. , -3. ]");
  const auto empty = cupp::host::zeros<float>({0, 3}).eval();
  BOOST_TEST(cupp::array2string(empty) == "[]");
  BOOST_TEST(cupp::array_repr(empty) == "array([], shape=(0, 3), dtype=float32)");
}

BOOST_AUTO_TEST_CASE(printoptions_scope_restores) {
  const cupp::print_options before = cupp::get_printoptions();
  BOOST_TEST(before.precision == 8);
  BOOST_TEST(before.threshold == 1000);
  const auto x = cupp::host::array<double>({1.0 / 3.0});
  BOOST_TEST(cupp::array_repr(x) == "array([0.33333333])");
  {
    cupp::printoptions outer({.precision = 3, .sign = '+'});
    BOOST_TEST(cupp::get_printoptions().precision == 3);
    BOOST_TEST(cupp::array_repr(x) == "array([+0.333])");
    {
      // The editing form keeps the options it does not touch.
      cupp::printoptions inner([](cupp::print_options& o) { o.linewidth = 20; });
      BOOST_TEST(cupp::get_printoptions().precision == 3);
      BOOST_TEST(cupp::get_printoptions().linewidth == 20);
    }
    BOOST_TEST(cupp::get_printoptions().linewidth == 75);
    BOOST_TEST(cupp::get_printoptions().precision == 3);
  }
  BOOST_TEST(cupp::get_printoptions().precision == 8);
  BOOST_TEST(cupp::get_printoptions().sign == '-');
  BOOST_TEST(cupp::array_repr(x) == "array([0.33333333])");

  // Restored when an exception leaves the scope.
  try {
    cupp::printoptions scope({.precision = 1});
    throw std::runtime_error("leave");
  } catch (const std::runtime_error&) {
  }
  BOOST_TEST(cupp::get_printoptions().precision == 8);

  cupp::set_printoptions([](cupp::print_options& o) { o.suppress = true; });
  BOOST_TEST(cupp::get_printoptions().suppress);
  BOOST_TEST(cupp::get_printoptions().precision == 8);
  cupp::set_printoptions(cupp::print_options{});
  BOOST_TEST(!cupp::get_printoptions().suppress);
}

BOOST_AUTO_TEST_CASE(invalid_options_throw) {
  BOOST_CHECK_THROW(cupp::set_printoptions({.sign = 'x'}), cupp::value_error);
  BOOST_CHECK_THROW(cupp::set_printoptions({.precision = -1}), cupp::value_error);
  BOOST_CHECK_THROW(cupp::printoptions({.edgeitems = -1}), cupp::value_error);
  BOOST_TEST(cupp::get_printoptions().sign == '-');
  const auto x = cupp::host::array<int>({1});
  BOOST_CHECK_THROW(cupp::array_repr(x, {.sign = '*'}), cupp::value_error);
}

// Lazy values print the array they evaluate to, as NumPy prints h[h > 5]
// (NumPy 2.4's repr of the same values).
BOOST_AUTO_TEST_CASE(lazy_values_print_their_arrays) {
  const cupp::host::ndarray<float> h = cupp::host::arange<float>(12);
  const auto text = [](const auto& v) {
    std::ostringstream os;
    os << v;
    return os.str();
  };
  // h[h > 5]: the mask proxy.
  BOOST_TEST(text(h(h > 5)) == "array([ 6.,  7.,  8.,  9., 10., 11.], dtype=float32)");
  BOOST_TEST(text(h(h > 100)) == "array([], dtype=float32)");
  // h.reshape(3, 4)[[True, False, True]]: rows through a mask.
  BOOST_TEST(text(h.reshape(3, 4)(cupp::host::array<bool>({true, false, true}))) ==
             "array([[ 0.,  1.,  2.,  3.],\n       [ 8.,  9., 10., 11.]], dtype=float32)");
  // h[[3, 0, 3]]: integer-array indexing.
  BOOST_TEST(text(h(std::vector<int>{3, 0, 3})) == "array([3., 0., 3.], dtype=float32)");
  // An expression and generators.
  BOOST_TEST(text(h.reshape(3, 4) * 2) ==
             "array([[ 0.,  2.,  4.,  6.],\n       [ 8., 10., 12., 14.],\n"
             "       [16., 18., 20., 22.]], dtype=float32)");
  BOOST_TEST(text(cupp::host::arange<std::int32_t>(3)) == "array([0, 1, 2], dtype=int32)");
  BOOST_TEST(text(cupp::host::eye<double>(2)) == "array([[1., 0.],\n       [0., 1.]])");
#if defined(__cpp_lib_format)
  BOOST_TEST(std::format("{}", h(h > 5)) == "array([ 6.,  7.,  8.,  9., 10., 11.], dtype=float32)");
  BOOST_TEST(std::format("{:s}", h(h > 5)) == "[ 6.  7.  8.  9. 10. 11.]");
  BOOST_TEST(std::format("{:s}", h(std::vector<int>{3, 0, 3})) == "[3. 0. 3.]");
  BOOST_TEST(std::format("{}", cupp::host::arange<std::int32_t>(3) + 1) ==
             "array([1, 2, 3], dtype=int32)");
#endif
}

#if defined(__cpp_lib_format)
BOOST_AUTO_TEST_CASE(std_format) {
  const auto x = cupp::host::array<float>({1.f, 2.5f});
  BOOST_TEST(std::format("{}", x) == "array([1. , 2.5], dtype=float32)");
  BOOST_TEST(std::format("{:r}", x) == "array([1. , 2.5], dtype=float32)");
  BOOST_TEST(std::format("{:s}", x) == "[1.  2.5]");
}
#endif

// Device arrays print through a host copy of the shown elements.
BOOST_AUTO_TEST_CASE(device_arrays) {
  if (!cupp::cuda::is_available()) {
    BOOST_TEST_MESSAGE("no CUDA device: device array printing not tested");
    return;
  }
  const auto h = cupp::host::array<float>({{1.f, 2.f}, {3.f, 4.f}});
  const cupp::ndarray<float> d = cupp::asarray(h);
  BOOST_TEST(cupp::array_repr(d) == "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  BOOST_TEST(cupp::array_str(d) == "[[1. 2.]\n [3. 4.]]");
  std::ostringstream os;
  os << d;
  BOOST_TEST(os.str() == cupp::array_repr(h));

  // Summarised along every axis: the corners come over as one strided copy.
  auto big = cupp::host::empty<double>({20, 30, 40});
  for (cupp::index_t i = 0; i < big.size(); ++i) big.data()[i] = static_cast<double>(i) * 0.5;
  const auto dbig = cupp::asarray(big);
  BOOST_TEST(cupp::array_repr(dbig) == cupp::array_repr(big));
  BOOST_TEST(cupp::array_str(dbig) == cupp::array_str(big));

  // A transposed (non-contiguous) device view.
  const cupp::shape_t tshape{40, 30, 20};
  const cupp::strides_t tstrides{dbig.strides()[2], dbig.strides()[1], dbig.strides()[0]};
  const auto dview = cupp::ndarray<double>::from_pointer(dbig.data(), tshape, tstrides,
                                                         dbig.memory(), dbig.device_id());
  const auto hview = cupp::host::ndarray<double>::from_pointer(
      big.data(), tshape, {big.strides()[2], big.strides()[1], big.strides()[0]}, big.memory());
  BOOST_TEST(cupp::array_repr(dview) == cupp::array_repr(hview));

  // Every dtype, summarised (3 x 700) and not (2 x 3).
  hana::for_each(cupp_test::all_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    for (const cupp::shape_t& shape : {cupp::shape_t{3, 700}, cupp::shape_t{2, 3}}) {
      auto host = cupp::host::empty<T>(shape);
      for (cupp::index_t i = 0; i < host.size(); ++i) host.data()[i] = cupp_test::sample<T>(i);
      const auto dev = cupp::asarray(host);
      BOOST_TEST(cupp::array_repr(dev) == cupp::array_repr(host), cupp::dtype_of<T>().name);
      BOOST_TEST(cupp::array_str(dev) == cupp::array_str(host), cupp::dtype_of<T>().name);
    }
  });

  // 0-d and empty device arrays.
  cupp::ndarray<std::int16_t> scalar(cupp::shape_t{});
  const std::int16_t seven = 7;
  scalar.set(std::span<const std::int16_t>(&seven, 1));
  BOOST_TEST(cupp::array_repr(scalar) == "array(7, dtype=int16)");
  BOOST_TEST(cupp::array_str(scalar) == "7");
  BOOST_TEST(cupp::array_repr(cupp::ndarray<bool>(cupp::shape_t{0})) == "array([], dtype=bool)");
}

BOOST_AUTO_TEST_SUITE_END()
