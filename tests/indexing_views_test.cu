// Basic indexing and the view functions against NumPy, for every case of
// tests/fixtures/indexing/cases.txt (but setitem, in indexing_assign_test.cu)
// and eleven dtypes: the result's shape, strides, offset, write flag,
// whether it is a view, its elements, or NumPy's exception and message.
#include "indexing_fixture.hpp"

#include <optional>

using namespace idx_test;

namespace {

// The call a case names, on `base` (shape and strides as NumPy's).
template <class T>
array<T> call(const fixture_case& c, const array<T>& base) {
  const auto& a = c.args;
  const std::string& op = c.op;
  if (op == "index") {
    std::size_t at = 1;
    const auto items = parse_items(a, at, std::stoul(a[0]));
    return base(items);
  }
  if (op == "reshape") return base.reshape(parse_tuple(a[0]), parse_order(a[1]));
  if (op == "ravel") return base.ravel(parse_order(a[0]));
  if (op == "flatten") return base.flatten(parse_order(a[0]));
  if (op == "T") return base.T();
  if (op == "transpose") return cupp::transpose(base);
  if (op == "transpose_axes") return base.transpose(parse_tuple(a[0]));
  if (op == "swapaxes") return cupp::swapaxes(base, std::stoll(a[0]), std::stoll(a[1]));
  if (op == "moveaxis") return cupp::moveaxis(base, parse_axis(a[0]), parse_axis(a[1]));
  if (op == "rollaxis") return cupp::rollaxis(base, std::stoll(a[0]), std::stoll(a[1]));
  if (op == "expand_dims") return cupp::expand_dims(base, parse_axis(a[0]));
  if (op == "squeeze") return cupp::squeeze(base, parse_axis(a[0]));
  if (op == "flip") return cupp::flip(base, parse_axis(a[0]));
  if (op == "fliplr") return cupp::fliplr(base);
  if (op == "flipud") return cupp::flipud(base);
  if (op == "atleast_1d") return cupp::atleast_1d(base);
  if (op == "atleast_2d") return cupp::atleast_2d(base);
  if (op == "atleast_3d") return cupp::atleast_3d(base);
  if (op == "ascontiguousarray") return cupp::ascontiguousarray(base);
  if (op == "asfortranarray") return cupp::asfortranarray(base);
  if (op == "broadcast_to") return cupp::broadcast_to(base, parse_tuple(a[0]));
  if (op == "broadcast_arrays") {
    const array<double> other(parse_tuple(a[0]));
    return std::get<0>(cupp::broadcast_arrays(base, other));
  }
  if (op == "as_strided") {
    cupp::strides_t st = parse_tuple(a[1]);
    for (auto& s : st) s *= base.itemsize();
    return cupp::as_strided(base, parse_tuple(a[0]), st);
  }
  if (op == "sliding_window_view")
    return cupp::sliding_window_view(base, parse_tuple(a[0]), parse_axis(a[1]));
  BOOST_FAIL("unknown operation " << op);
  return base;
}

template <class T>
void check_case(const fixture_case& c) {
  const array<T> storage = make_storage<T>(c.m);
  const array<T> base = make_base<T>(c, storage);
  const index_t item = base.itemsize();
  std::optional<array<T>> r;
  try {
    r = call<T>(c, base);
  } catch (const std::exception& e) {
    BOOST_TEST(python_name(e) == c.error_type);
    BOOST_TEST(std::string(e.what()) == c.error_message);
    return;
  }
  BOOST_TEST_REQUIRE(c.error_type.empty(),
                     "NumPy raises " << c.error_type << ": " << c.error_message);
  BOOST_TEST(r->shape() == c.r_shape, "shape " << cupp::to_string(r->shape()));
  if (c.kind != "scalar") BOOST_TEST(r->flags().writeable == c.writeable);
  const bool same_memory = r->memory().get() == storage.memory().get();
  if (c.kind == "view") {
    BOOST_TEST(same_memory, "NumPy returns a view");
    BOOST_TEST(reinterpret_cast<const char*>(r->data()) -
                   reinterpret_cast<const char*>(storage.data()) ==
               c.r_off * item);
  } else if (c.kind == "copy") {
    BOOST_TEST(!same_memory, "NumPy returns a copy");
  }
  // NumPy's strides along unit axes, and of empty arrays, are arbitrary.
  if (r->size() > 0 && r->shape() == c.r_shape)
    for (int i = 0; i < r->ndim(); ++i)
      if (c.r_shape[i] != 1)
        BOOST_TEST(r->strides()[i] == c.r_strides[i] * item, "stride of axis " << i);
  const std::vector<T> got = r->to_vector();
  BOOST_TEST_REQUIRE(got.size() == c.ids.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(got[k], value_of<T>(c.ids[k])),
               "element " << k << " should be element " << c.ids[k] << " of the storage");
}

void run_all(const std::string& prefix_op) {
  int n = 0;
  for (const fixture_case& c : cases()) {
    if (c.op == "setitem" || (prefix_op != "*" && c.op.rfind(prefix_op, 0) != 0)) continue;
    ++n;
    boost::hana::for_each(dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      BOOST_TEST_CONTEXT(c.name << " [" << cupp::dtype_of<T>().name << "]: " << c.line) {
        check_case<T>(c);
      }
    });
  }
  BOOST_TEST(n > 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(numpy_views)

BOOST_AUTO_TEST_CASE(basic_indexing) {
  run_all("index");
}
BOOST_AUTO_TEST_CASE(reshape) {
  run_all("reshape");
}
BOOST_AUTO_TEST_CASE(ravel_and_flatten) {
  run_all("ravel");
  run_all("flatten");
}
BOOST_AUTO_TEST_CASE(transposes) {
  run_all("T");
  run_all("transpose");
  run_all("swapaxes");
  run_all("moveaxis");
  run_all("rollaxis");
}
BOOST_AUTO_TEST_CASE(unit_axes) {
  run_all("expand_dims");
  run_all("squeeze");
  run_all("atleast_");
}
BOOST_AUTO_TEST_CASE(flips) {
  run_all("flip");
}
BOOST_AUTO_TEST_CASE(contiguous_copies) {
  run_all("ascontiguousarray");
  run_all("asfortranarray");
}
BOOST_AUTO_TEST_CASE(broadcasting) {
  run_all("broadcast_");
}
BOOST_AUTO_TEST_CASE(stride_tricks) {
  run_all("as_strided");
  run_all("sliding_window_view");
}

BOOST_AUTO_TEST_SUITE_END()
