// Reductions against NumPy beyond the per-dtype tables: dtype= (the
// accumulator and result), out= of another dtype, where= with a lazy mask,
// reductions of lazy expressions (x * y), user reductions
// (cupp::reduction), allclose / array_equal / array_equiv, and the errors
// of out= and where= shapes (tests/support/reduction_harness.hpp).
#include <cupp/ufunc/arithmetic.hpp>
#include "reduction_harness.hpp"

#include <cuda/std/cmath>

using namespace reduction_test;
using c128 = cuda::std::complex<double>;

namespace reduction_user {

// The functors of the user reductions (CuPy's ReductionKernel).
struct times {
  CUPP_HD double operator()(double x, double y) const { return x * y; }
};
struct plus {
  template <class A>
  CUPP_HD A operator()(A a, A b) const {
    return a + b;
  }
};
struct identity {
  template <class A>
  CUPP_HD A operator()(A a) const {
    return a;
  }
};
struct positive {
  CUPP_HD std::int64_t operator()(std::int32_t x) const { return x > 0 ? 1 : 0; }
};

// sqrt(sum(x * x)) with __host__ __device__ lambdas.
void run_l2() {
  failures f;
  auto l2 = cupp::reduction([] CUPP_HD(float x) { return x * x; },
                            [] CUPP_HD(float a, float b) { return a + b; },
                            [] CUPP_HD(float a) { return ::cuda::std::sqrt(a); }, 0.0f);
  for (const record* r : records_of("user", "l2", "float32")) {
    const operand<float> op = make_operand<float>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    check_layouts(*r, op, f, [&](const auto& x) { return l2(x, cupp::kw::axis = axis); });
  }
}

// sum(x * y) over the axes, keepdims as the record says: two operands.
void run_dot() {
  failures f;
  const auto dot = cupp::reduction(times{}, plus{}, identity{}, 0.0);
  for (const record* r : records_of("user", "dot", "float64")) {
    const operand<double> op = make_operand<double>(r->input);
    const arr<double> y = place(make_operand<double>(*r->opt("b")), layout::c);
    const cupp::axis_arg axis = make_axis(r->axis);
    check_layouts(*r, op, f, [&](const auto& x) {
      return dot(x, y, cupp::kw::axis = axis, cupp::kw::keepdims = r->keepdims);
    });
  }
}

// count of x > 0 in an int64 accumulator.
void run_count() {
  failures f;
  const auto count = cupp::reduction(positive{}, plus{}, identity{}, std::int64_t{0});
  for (const record* r : records_of("user", "count", "int32")) {
    const operand<std::int32_t> op = make_operand<std::int32_t>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    check_layouts(*r, op, f, [&](const auto& x) { return count(x, cupp::kw::axis = axis); });
  }
}

}  // namespace reduction_user

namespace {

// Fn of x * y, y the record's second operand.
template <class Fn, class T>
void run_expr() {
  failures f;
  for (const record* r : records_of("expr", Fn::name, dtype_name<T>())) {
    const operand<T> op = make_operand<T>(r->input);
    const arr<T> y = place(make_operand<T>(*r->opt("b")), layout::f);
    const cupp::axis_arg axis = make_axis(r->axis);
    check_layouts(*r, op, f, [&](const auto& x) { return Fn::call(x * y, axis, false, 0.0); });
  }
}

// sum(x, where=x > 0): a lazy mask.
void run_lazy_mask() {
  failures f;
  for (const record* r : records_of("where", "sum_xpos", "float32")) {
    const operand<float> op = make_operand<float>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    check_layouts(*r, op, f, [&](const auto& x) {
      return cupp::sum(x, axis, cupp::kw::keepdims = r->keepdims, cupp::kw::where = x > 0.0f);
    });
  }
}

// allclose, array_equal, array_equiv: a bool, NumPy's written as a 0-d array.
template <class T>
void run_compare(const std::string& func) {
  failures f;
  for (const record* r : records_of("cmp", func, dtype_name<T>())) {
    const operand<T> a = make_operand<T>(r->input);
    const operand<T> b = make_operand<T>(*r->opt("b"));
    const bool equal_nan = r->opt("equal_nan") && *r->opt("equal_nan") == "1";
    for (layout l : layouts_of(a)) {
      const std::string what = describe(*r, name_of(l));
      const arr<T> x = place(a, l);
      const arr<T> y = place(b, lazy_layout(b));
      auto call = [&] {
        if (func == "allclose") return cupp::allclose(x, y, 1e-05, 1e-08, equal_nan);
        if (func == "array_equal") return cupp::array_equal(x, y, equal_nan);
        return cupp::array_equiv(x, y);
      };
      try {
        if (r->is_error()) {
          expect_error(what, *r, f, call);
        } else {
          harr<bool> got(shape_t::filled(0, 0));
          got.data()[0] = call();
          compare(what, got, *r, f);
        }
      } catch (const std::exception& e) {
        if (f.report()) BOOST_ERROR(what << ": threw " << e.what());
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_options)

// (The device build compiles the first half: each is a kernel of its own.)
BOOST_AUTO_TEST_CASE(dtype) {
  run_dtype<sum_fn, std::int8_t, std::int8_t>();
  run_dtype<sum_fn, std::int8_t, double>();
  run_dtype<sum_fn, __half, float>();
  run_dtype<prod_fn, std::int16_t, std::int16_t>();
  run_dtype<mean_fn, std::int32_t, float>();
  run_dtype<var_fn, float, double>();
  run_dtype<cumsum_fn, std::int32_t, double>();
  if constexpr (!on_device) {
    run_dtype<sum_fn, float, double>();
    run_dtype<sum_fn, bool, std::int32_t>();
    run_dtype<sum_fn, std::uint8_t, std::uint8_t>();
    run_dtype<sum_fn, std::int32_t, c128>();
    run_dtype<nansum_fn, float, double>();
    run_dtype<mean_fn, __half, double>();
    run_dtype<std_fn, std::int16_t, float>();
    run_dtype<cumsum_fn, std::int8_t, std::int8_t>();
    run_dtype<cumprod_fn, std::uint8_t, std::uint64_t>();
  }
}

// NumPy computes in the out= array's dtype.
BOOST_AUTO_TEST_CASE(out_of_another_dtype) {
  run_out<sum_fn, std::int8_t, std::int16_t>();
  run_out<mean_fn, std::int32_t, float>();
  if constexpr (!on_device) {
    run_out<sum_fn, float, double>();
    run_out<max_fn, std::int8_t, std::int32_t>();
    run_out<sum_fn, std::uint8_t, std::int8_t>();
  }
}

using cupp_test::message_of;

// NumPy 2.4's messages for the same calls (those of its reduction
// iterator: out= remapped with newaxis at the reduced axes).
BOOST_AUTO_TEST_CASE(out_of_the_wrong_shape) {
  const arr<float> x = to_space(pattern<float>('g', {3, 4, 5}));
  const arr<float> o = to_space(harr<float>({3, 4}));
  BOOST_TEST(message_of([&] { cupp::sum(x, 1, cupp::out(o)); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (3,4)->(3,newaxis,4) (3,4,5) ");
  BOOST_TEST(message_of([&] { cupp::max(x, 1, cupp::kw::keepdims = true, cupp::out(o)); }) ==
             "output parameter for reduction operation maximum has the wrong number of "
             "dimensions: Found 2 but expected 3 (must match the operand's when keepdims=True)");
  const arr<float> x2 = to_space(pattern<float>('g', {3, 4}));
  BOOST_TEST(message_of([&] {
               cupp::prod(x2, 0, cupp::out(to_space(harr<float>({2, 4}))));
             }) ==
             "output parameter for reduction operation multiply has the wrong number of "
             "dimensions: Found 2 but expected 1");
  BOOST_TEST(message_of([&] { cupp::mean(x2, 0, cupp::out(to_space(harr<float>({3})))); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (3,)->(3) (3,4) ");
  BOOST_TEST(message_of([&] { cupp::sum(x2, 0, cupp::out(to_space(harr<float>({1})))); }) ==
             "output operand requires a reduction along dimension 0, but the reduction is not "
             "enabled. The dimension size of 1 does not match the expected output shape.");
  BOOST_TEST(
      message_of([&] {
        cupp::sum(x2, 0, cupp::kw::keepdims = true, cupp::out(to_space(harr<float>({3, 4}))));
      }) ==
      "operand was set up as a reduction along axis 0, but the length of the axis "
      "is 3 (it has to be 1)");
  BOOST_TEST(message_of([&] {
               cupp::argmin(x2, 0, cupp::out(to_space(harr<std::int64_t>({3}))));
             }) == "output array does not match result of np.argmin.");
  arr<float> ro = to_space(harr<float>({4}));
  ro.setflags(false);
  BOOST_TEST(message_of([&] { cupp::sum(x2, 0, cupp::out(ro)); }) == "output array is read-only");
  const arr<float> ok = to_space(harr<float>({3, 5}));
  BOOST_CHECK_NO_THROW(cupp::sum(x, 1, cupp::out(ok)));
}

BOOST_AUTO_TEST_CASE(where_of_the_wrong_shape) {
  const arr<float> x = to_space(pattern<float>('g', {3, 4, 5}));
  const arr<bool> m = to_space(pattern<bool>('m', {4, 4}));
  BOOST_TEST(message_of([&] { cupp::sum(x, 1, cupp::kw::where = m); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (3,4,5) (4,4) ");
  const arr<float> x2 = to_space(pattern<float>('g', {3, 4}));
  const arr<bool> m43 = to_space(pattern<bool>('m', {4, 3}));
  BOOST_TEST(message_of([&] {
               cupp::sum(x2, 0, cupp::kw::where = m43, cupp::out(to_space(harr<float>({4}))));
             }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (4,)->(4) (3,4) (4,3) ");
  BOOST_TEST(message_of([&] { cupp::max(x2, cupp::kw::where = m, cupp::kw::initial = 0.f); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (3,4) (4,4) ");
  BOOST_TEST(message_of([&] {
               cupp::sum(x2, cupp::kw::where = to_space(pattern<bool>('m', {2, 3, 4})));
             }) == "input operand has more dimensions than allowed by the axis remapping");
  // An operand smaller than the mask is not broadcast to it.
  const arr<float> x31 = to_space(pattern<float>('g', {3, 1}));
  BOOST_TEST(message_of([&] {
               cupp::sum(x31, 0, cupp::kw::where = to_space(pattern<bool>('m', {3, 4})));
             }) ==
             "non-broadcastable operand with shape (3,1) doesn't match the broadcast shape "
             "(3,4)");
  // mean, var and std broadcast the mask with numpy.broadcast_to first.
  BOOST_TEST(message_of([&] { cupp::mean(x2, cupp::kw::where = m43); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (4,3)  and requested shape (3,4)");
  BOOST_TEST(message_of([&] { cupp::std(x2, 0, cupp::kw::where = m43); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (4,3)  and requested shape (3,4)");
  BOOST_TEST(message_of([&] { cupp::nanvar(x2, cupp::kw::where = m43); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (3,4) (4,3) ");
}

BOOST_AUTO_TEST_CASE(lazy_mask) {
  run_lazy_mask();
}

BOOST_AUTO_TEST_CASE(expressions) {
  if constexpr (!on_device) {  // (the device build: float32 only)
    run_expr<sum_fn, std::int32_t>();
    run_expr<max_fn, std::int32_t>();
    run_expr<argmax_fn, std::int32_t>();
    run_expr<mean_fn, std::int32_t>();
  }
  run_expr<sum_fn, float>();
  run_expr<max_fn, float>();
  run_expr<argmax_fn, float>();
  run_expr<mean_fn, float>();
}

BOOST_AUTO_TEST_CASE(user_reductions) {
  reduction_user::run_l2();
  reduction_user::run_dot();
  reduction_user::run_count();
}

BOOST_AUTO_TEST_CASE(comparisons) {
  for (const char* func : {"allclose", "array_equal", "array_equiv"}) {
    run_compare<double>(func);
    if constexpr (!on_device) run_compare<float>(func);
  }
}

BOOST_AUTO_TEST_SUITE_END()
