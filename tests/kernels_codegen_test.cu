// ElementwiseKernel and ReductionKernel without a GPU: CuPy's parameter
// syntax and its errors, the binding of placeholders to dtypes (and the
// mismatches CuPy rejects), the merging of axes, and the generated sources
// of every dtype compiled by NVRTC for sm_90.
#include <cupp/kernels.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace dk = cupp::detail::kernels;
using cupp::dtype_id;

BOOST_AUTO_TEST_SUITE(kernels_codegen)

BOOST_AUTO_TEST_CASE(parameter_lists) {
  const auto in = dk::parse_params(" T x,raw  float32 y , int8 z", false);
  BOOST_TEST_REQUIRE(in.size() == 3u);
  BOOST_TEST(in[0].name == "x");
  BOOST_TEST(in[0].placeholder == 'T');
  BOOST_TEST(!in[0].type.has_value());
  BOOST_TEST(!in[0].raw);
  BOOST_TEST(in[1].raw);
  BOOST_TEST((in[1].type == dtype_id::float32));
  BOOST_TEST((in[2].type == dtype_id::int8));
  BOOST_TEST(!in[2].is_output);
  BOOST_TEST(dk::parse_params("T out", true)[0].is_output);
  BOOST_TEST(dk::parse_params("   ", false).empty());
  BOOST_TEST(dk::parse_params("", false).empty());

  BOOST_CHECK_THROW(dk::parse_params("x", false), cupp::value_error);
  BOOST_CHECK_THROW(dk::parse_params("T x,", false), cupp::value_error);
  BOOST_CHECK_THROW(dk::parse_params("float x", false), cupp::type_error);  // a C name
  BOOST_CHECK_THROW(dk::parse_params("f4 x", false), cupp::type_error);
  BOOST_CHECK_THROW(dk::parse_params("const T x", false), cupp::value_error);
  BOOST_CHECK_THROW(dk::parse_params("T 1x", false), cupp::value_error);
  BOOST_CHECK_THROW(dk::parse_params("TT x", false), cupp::type_error);
  BOOST_CHECK_THROW(
      dk::check_unique_names(dk::parse_params("T x, T y", false), dk::parse_params("T x", true)),
      cupp::value_error);
  BOOST_CHECK_THROW(cupp::ElementwiseKernel("T x", "T y", "y = x", "not a name"),
                    cupp::value_error);
  BOOST_CHECK_THROW(cupp::ElementwiseKernel("T x", "", "", "k"), cupp::value_error);
  BOOST_CHECK_THROW(cupp::ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "r"),
                    cupp::value_error);
  BOOST_CHECK_THROW(cupp::ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0", "r"),
                    cupp::value_error);
}

BOOST_AUTO_TEST_CASE(placeholder_binding) {
  const auto in = dk::parse_params("T x, T y, U s, float64 w", false);
  const auto out = dk::parse_params("T z, U u", true);
  using k = dk::arg_kind;
  {
    const k args[] = {{dtype_id::float32, true},
                      {dtype_id::float32, true},
                      {dtype_id::int64, false},
                      {dtype_id::float64, true}};
    const auto b = dk::bind_types("k", in, out, args, nullptr);
    BOOST_TEST((*b.of('T') == dtype_id::float32));
    BOOST_TEST((*b.of('U') == dtype_id::int64));  // a scalar binds what no array binds
    BOOST_TEST((b.type_of(out[1], "k") == dtype_id::int64));
  }
  {  // the outputs bind first: a scalar then takes their type
    const k args[] = {{dtype_id::int16, true},
                      {dtype_id::int16, true},
                      {dtype_id::float64, false},
                      {dtype_id::float64, true}};
    const k outs[] = {{dtype_id::int16, true}, {dtype_id::uint8, true}};
    const auto b = dk::bind_types("k", in, out, args, outs);
    BOOST_TEST((*b.of('U') == dtype_id::uint8));
  }
  {  // x and y disagree on T
    const k args[] = {{dtype_id::float32, true},
                      {dtype_id::float64, true},
                      {dtype_id::int64, false},
                      {dtype_id::float64, true}};
    BOOST_CHECK_THROW(dk::bind_types("k", in, out, args, nullptr), cupp::type_error);
  }
  {  // an array for a fixed float64 parameter must be float64
    const k args[] = {{dtype_id::float32, true},
                      {dtype_id::float32, true},
                      {dtype_id::int64, false},
                      {dtype_id::float32, true}};
    BOOST_CHECK_THROW(dk::bind_types("k", in, out, args, nullptr), cupp::type_error);
  }
  {  // an output given as a scalar
    const k args[] = {{dtype_id::float32, true},
                      {dtype_id::float32, true},
                      {dtype_id::int64, false},
                      {dtype_id::float64, true}};
    const k outs[] = {{dtype_id::float32, false}, {dtype_id::int64, true}};
    BOOST_CHECK_THROW(dk::bind_types("k", in, out, args, outs), cupp::type_error);
  }
  {  // nothing binds V
    const auto in2 = dk::parse_params("T x", false);
    const auto out2 = dk::parse_params("V z", true);
    const k args[] = {{dtype_id::float32, true}};
    const auto b = dk::bind_types("k", in2, out2, args, nullptr);
    BOOST_CHECK_THROW((void)b.type_of(out2[0], "k"), cupp::type_error);
  }
}

BOOST_AUTO_TEST_CASE(axes_merged_in_c_order) {
  using cupp::shape_t;
  using cupp::strides_t;
  {  // C-contiguous and a broadcast row: (4, 5, 6) merges to 120 for the
     // first, not across the broadcast axis for the second
    shape_t s{4, 5, 6};
    strides_t a{120, 24, 4}, b{0, 24, 4};
    std::vector<strides_t*> st{&a, &b};
    BOOST_TEST(dk::merge_axes_c_order(s, st) == 2);
    BOOST_TEST((s == shape_t{4, 30}));
    BOOST_TEST((a == strides_t{120, 4}));
    BOOST_TEST((b == strides_t{0, 4}));
  }
  {  // a transposed operand keeps both axes; unit axes go
    shape_t s{3, 1, 2};
    strides_t a{4, 99, 12};
    std::vector<strides_t*> st{&a};
    BOOST_TEST(dk::merge_axes_c_order(s, st) == 2);
    BOOST_TEST((s == shape_t{3, 2}));
    BOOST_TEST((a == strides_t{4, 12}));
  }
  {  // a 0-d loop is one element
    shape_t s{};
    strides_t a{};
    std::vector<strides_t*> st{&a};
    BOOST_TEST(dk::merge_axes_c_order(s, st) == 1);
    BOOST_TEST((s == shape_t{1}));
    BOOST_TEST(a[0] == 0);
  }
}

namespace {

std::vector<std::string> include_options() {
  const std::string inc = dk::cuda_include_dir();
  return {"-I" + inc, "-I" + inc + "/cccl"};
}

}  // namespace

// The generated source of every dtype compiles: strided, contiguous and raw
// operands, a scalar, the index i.
BOOST_AUTO_TEST_CASE(elementwise_sources_compile_for_every_dtype) {
  const auto in = dk::parse_params("T x, raw T y, T s", false);
  const auto out = dk::parse_params("T z", true);
  for (int d = 0; d < cupp::n_dtypes; ++d) {
    const auto t = static_cast<dtype_id>(d);
    dk::type_binding b;
    b.of('T') = t;
    for (const bool contiguous : {false, true}) {
      using L = dk::param_layout;
      const L::kind_t arr = contiguous ? L::contiguous_array : L::array;
      dk::elementwise_source_spec spec{
          &in,
          &out,
          {{t, arr}, {t, L::raw_array, 2, contiguous}, {t, L::scalar}, {t, arr}},
          &b,
          contiguous ? 1 : 3,
          d % 2 == 0,
          t == dtype_id::bool_ ? "z = x && y[i] && s" : "z = x * s + y[_ind.size() - 1 - i]",
          "ew",
          "",
          "",
          ""};
      const std::string src = dk::elementwise_source(spec);
      BOOST_TEST_CONTEXT(cupp::descriptor(t).name << (contiguous ? " contiguous" : " strided")) {
        BOOST_CHECK_NO_THROW(dk::nvrtc_compile(src, "ew.cu", include_options(), {}, 90));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(reduction_sources_compile) {
  const auto in = dk::parse_params("T x, T w", false);
  const auto out = dk::parse_params("T y", true);
  using L = dk::param_layout;
  for (const dtype_id t : {dtype_id::float32, dtype_id::float16, dtype_id::complex128,
                           dtype_id::int8, dtype_id::uint64}) {
    dk::type_binding b;
    b.of('T') = t;
    for (const int group : {1, 32, 256})
      for (const bool identity : {false, true}) {
        dk::reduction_source_spec spec{&in,
                                       &out[0],
                                       {{t, L::array}, {t, L::scalar}, {t, L::array}},
                                       &b,
                                       "T",
                                       2,
                                       1,
                                       group == 32,
                                       group,
                                       "x * w",
                                       "a + b",
                                       "y = a",
                                       identity ? "0" : "",
                                       "red",
                                       ""};
        BOOST_TEST_CONTEXT(cupp::descriptor(t).name << " group " << group << " identity "
                                                    << identity) {
          BOOST_CHECK_NO_THROW(
              dk::nvrtc_compile(dk::reduction_source(spec), "red.cu", include_options(), {}, 90));
        }
      }
  }
}

// A user's mistake in the operation is a compile_error that cites it.
BOOST_AUTO_TEST_CASE(operation_errors_cite_the_line) {
  const auto in = dk::parse_params("T x", false);
  const auto out = dk::parse_params("T z", true);
  dk::type_binding b;
  b.of('T') = dtype_id::float32;
  using L = dk::param_layout;
  dk::elementwise_source_spec spec{&in,
                                   &out,
                                   {{dtype_id::float32, L::array}, {dtype_id::float32, L::array}},
                                   &b,
                                   1,
                                   false,
                                   "z = x * undefined_name",
                                   "bad",
                                   "",
                                   "",
                                   ""};
  try {
    dk::nvrtc_compile(dk::elementwise_source(spec), "bad.cu", {}, {}, 90);
    BOOST_FAIL("no compile_error");
  } catch (const cupp::compile_error& e) {
    BOOST_TEST(std::string(e.what()).find("z = x * undefined_name") != std::string::npos);
    BOOST_TEST(e.log().find("undefined_name") != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
