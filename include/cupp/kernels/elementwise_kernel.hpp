// cupp::ElementwiseKernel: CuPy's ElementwiseKernel, with CuPy's string
// syntax, so that CuPy's kernels port line by line. Part of
// <cupp/kernels.hpp> (link cupp::kernels).
//
//   cupp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)",
//                                        "squared_diff");
//   cupp::ndarray<float> z = squared_diff(x, y);  // broadcast, z allocated
//   squared_diff(x, y, z);                         // into z
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/kernels/raw_kernel.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/kernels/call.hpp>
#include <cupp/detail/kernels/codegen.hpp>
#include <cupp/detail/kernels/generated_launch.hpp>
#include <cupp/detail/kernels/params.hpp>

namespace cupp {

using detail::kernels::kernel_outputs;

// What CuPy's ElementwiseKernel takes besides its four strings.
struct elementwise_kernel_options {
  bool reduce_dims = true;                // merge axes contiguous in every operand
  std::string preamble = {};              // code before the kernel (helpers, constants)
  std::string loop_prep = {};             // code at the kernel's start
  std::string after_loop = {};            // code at its end
  std::vector<std::string> options = {};  // NVRTC options
};

// Options of one call, passed as the last argument: the loop size where no
// array argument sets it (CuPy's size=), threads per block (block_size=),
// the stream (the current one if none).
struct kernel_call {
  std::optional<index_t> size = std::nullopt;
  int block_size = 0;
  std::optional<cuda::Stream> stream = std::nullopt;
};

namespace detail::kernels {

template <class A>
inline constexpr bool is_kernel_call_v = std::is_same_v<A, kernel_call>;

}  // namespace detail::kernels

class ElementwiseKernel {
 public:
  ElementwiseKernel(std::string in_params, std::string out_params, std::string operation,
                    std::string name = "kernel", elementwise_kernel_options options = {})
      : s_(std::make_shared<state>()) {
    auto [in, out] =
        detail::kernels::parse_signature("ElementwiseKernel", in_params, out_params, name);
    if (out.empty()) throw value_error("ElementwiseKernel: no output parameters");
    s_->in = std::move(in);
    s_->out = std::move(out);
    s_->in_text = std::move(in_params);
    s_->out_text = std::move(out_params);
    s_->operation = std::move(operation);
    s_->name = std::move(name);
    s_->opts = std::move(options);
  }

  // kernel(inputs...) allocates the outputs; kernel(inputs..., outputs...)
  // writes into them. Arrays are device arrays; scalars are converted to
  // their parameter's type. A cupp::kernel_call may come last.
  template <class... A>
  kernel_outputs operator()(const A&... args) const {
    constexpr std::size_t n = sizeof...(A);
    detail::kernels::any_arg captured[n == 0 ? 1 : n];
    kernel_call opts;
    const std::size_t count = detail::kernels::capture_args(captured, opts, args...);
    return call(std::span(captured, count), opts);
  }

  const std::string& name() const noexcept { return s_->name; }
  const std::string& in_params() const noexcept { return s_->in_text; }
  const std::string& out_params() const noexcept { return s_->out_text; }
  const std::string& operation() const noexcept { return s_->operation; }
  std::size_t nin() const noexcept { return s_->in.size(); }
  std::size_t nout() const noexcept { return s_->out.size(); }
  std::size_t nargs() const noexcept { return nin() + nout(); }

 private:
  struct state {
    std::vector<detail::kernels::param_info> in, out;
    std::string in_text, out_text, operation, name;
    elementwise_kernel_options opts;
    detail::kernels::signature_table kernels;
  };

  kernel_outputs call(std::span<detail::kernels::any_arg> args, const kernel_call& opts) const;

  std::shared_ptr<state> s_;
};

inline kernel_outputs ElementwiseKernel::call(std::span<detail::kernels::any_arg> args,
                                              const kernel_call& opts) const {
  namespace k = detail::kernels;
  const state& s = *s_;
  const std::size_t nin = s.in.size(), nout = s.out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw type_error(s.name + ": takes " + std::to_string(nin) + " or " +
                     std::to_string(nin + nout) + " arguments, " + std::to_string(args.size()) +
                     " given");
  const bool outs_given = args.size() == nin + nout;
  const int device = cuda::runtime::getDevice();
  k::arg_kind kinds[k::max_kernel_params];
  if (args.size() > k::max_kernel_params) throw value_error(s.name + ": too many parameters");
  for (std::size_t a = 0; a < args.size(); ++a) {
    k::check_device(args[a], device, s.name);
    kinds[a] = {args[a].type, args[a].is_array};
  }
  const k::type_binding b =
      k::bind_types(s.name, s.in, s.out, kinds, outs_given ? kinds + nin : nullptr);
  const auto param = [&](std::size_t a) -> const k::param_info& {
    return a < nin ? s.in[a] : s.out[a - nin];
  };
  for (std::size_t a = 0; a < nin; ++a)
    if (s.in[a].raw && !args[a].is_array)
      throw type_error(s.name + ": raw parameter '" + s.in[a].name + "' takes an array");

  // The loop's shape: the broadcast of the non-raw arrays, or `size`.
  shape_t shapes[k::max_kernel_params];
  int nshapes = 0;
  for (std::size_t a = 0; a < args.size(); ++a)
    if (args[a].is_array && !param(a).raw) shapes[nshapes++] = args[a].shape;
  shape_t shape;
  if (nshapes == 0) {
    if (!opts.size)
      throw value_error(s.name +
                        ": the loop size is undecided: no non-raw array argument, and "
                        "no kernel_call{.size}");
    if (*opts.size < 0) throw value_error(s.name + ": negative loop size");
    shape = shape_t{*opts.size};
  } else {
    if (opts.size)
      throw value_error(s.name +
                        ": kernel_call{.size} is given but there are non-raw array "
                        "arguments");
    shape = detail::broadcast_shapes(std::span<const shape_t>(shapes, nshapes));
  }
  if (outs_given)
    for (std::size_t a = nin; a < args.size(); ++a)
      if (!s.out[a - nin].raw && args[a].shape != shape)
        throw value_error(s.name + ": the shape of output '" + s.out[a - nin].name + "' " +
                          detail::np_shape(args[a].shape) + " is not the loop's " +
                          detail::np_shape(shape));

  // Outputs: the given arrays, or new C-contiguous ones of the loop's shape.
  kernel_outputs result;
  auto& outs = result.list();
  for (std::size_t o = 0; o < nout; ++o) {
    if (outs_given) {
      const k::any_arg& a = args[nin + o];
      outs.push_back({a.data, a.shape, a.strides, a.owner, a.device, a.type, false});
    } else {
      if (s.out[o].raw)
        throw value_error(s.name + ": output '" + s.out[o].name +
                          "' is raw: pass its array (raw outputs are not allocated)");
      outs.push_back(k::allocate_output(shape, b.type_of(s.out[o], s.name), device));
    }
  }
  const index_t size = detail::size_of(shape);
  if (size == 0) return result;

  // Strides of the non-raw operands over the loop's shape, axes merged.
  const std::size_t nparams = nin + nout;
  strides_t strides[k::max_kernel_params];
  std::vector<strides_t*> merged;
  merged.reserve(nparams);
  for (std::size_t a = 0; a < nparams; ++a) {
    const bool array = a < nin ? args[a].is_array : true;
    if (!array || param(a).raw) continue;
    const shape_t& sh = a < nin ? args[a].shape : outs[a - nin].shape;
    const strides_t& st = a < nin ? args[a].strides : outs[a - nin].strides;
    strides[a] = detail::broadcast_strides(sh, st, shape);
    merged.push_back(&strides[a]);
  }
  shape_t loop = shape;
  int nd;
  if (s.opts.reduce_dims) {
    nd = k::merge_axes_c_order(loop, merged);
  } else {
    nd = std::max(loop.size(), 1);
    if (loop.size() == 0) {
      loop = shape_t{1};
      for (strides_t* st : merged) *st = strides_t{0};
    }
  }

  // The signature: the device, rank, index width and each parameter's kind.
  k::param_layout layouts[k::max_kernel_params];
  bool headers = false;
  std::string key;
  key.reserve(8 + 4 * nparams);
  key += static_cast<char>(device);
  key += static_cast<char>(nd);
  const bool wide = size > 0x7fffffff;
  key += static_cast<char>(wide);
  for (std::size_t a = 0; a < nparams; ++a) {
    const k::param_info& p = param(a);
    const dtype_id t = b.type_of(p, s.name);
    k::param_layout l{t, k::param_layout::scalar};
    const bool array = a < nin ? args[a].is_array : true;
    if (array && p.raw) {
      const shape_t& sh = a < nin ? args[a].shape : outs[a - nin].shape;
      l.kind = k::param_layout::raw_array;
      l.raw_ndim = std::max(sh.size(), 1);
      l.raw_contiguous = a < nin ? args[a].c_contiguous : true;
      if (a >= nin) {
        const auto& o = outs[a - nin];
        l.raw_contiguous = o.strides == detail::contiguous_strides(o.shape, descriptor(t).itemsize);
      }
    } else if (array) {
      l.kind = nd == 1 && strides[a][0] == descriptor(t).itemsize
                   ? k::param_layout::contiguous_array
                   : k::param_layout::array;
    }
    layouts[a] = l;
    headers |= k::needs_headers(t);
    key += static_cast<char>(t);
    key += static_cast<char>(l.kind);
    key += static_cast<char>(l.raw_ndim);
    key += static_cast<char>(l.raw_contiguous);
  }
  cudaKernel_t handle = s.kernels.find(key);
  if (!handle) {
    k::elementwise_source_spec spec{&s.in,
                                    &s.out,
                                    std::vector<k::param_layout>(layouts, layouts + nparams),
                                    &b,
                                    nd,
                                    wide,
                                    s.operation,
                                    s.name,
                                    s.opts.preamble,
                                    s.opts.loop_prep,
                                    s.opts.after_loop};
    handle =
        k::load_generated(k::elementwise_source(spec), s.name, s.opts.options, headers, device);
    s.kernels.insert(key, handle);
  }

  // The arguments, in the kernel's parameter order.
  k::argument_pack pack;
  for (std::size_t a = 0; a < nparams; ++a) {
    const k::param_layout& l = layouts[a];
    const void* data = a < nin ? args[a].data : outs[a - nin].data;
    switch (l.kind) {
      case k::param_layout::array:
      case k::param_layout::contiguous_array:
        k::pack_strided(pack, data, strides[a], nd);
        break;
      case k::param_layout::raw_array: {
        const shape_t& sh = a < nin ? args[a].shape : outs[a - nin].shape;
        const strides_t& st = a < nin ? args[a].strides : outs[a - nin].strides;
        const int m = l.raw_ndim;
        unsigned char* p = pack.reserve(16 + 16 * static_cast<std::size_t>(m), 8);
        const long long n = detail::size_of(sh);
        std::memcpy(p, &data, 8);
        std::memcpy(p + 8, &n, 8);
        for (int d = 0; d < m; ++d) {
          const long long e = sh.size() ? sh[d] : 1, t = st.size() ? st[d] : 0;
          std::memcpy(p + 16 + 8 * d, &e, 8);
          std::memcpy(p + 16 + 8 * (m + d), &t, 8);
        }
        break;
      }
      case k::param_layout::scalar: {
        const int item = descriptor(l.type).itemsize;
        k::convert_scalar(args[a], l.type,
                          pack.reserve(static_cast<std::size_t>(item),
                                       static_cast<std::size_t>(k::dtype_alignment(l.type))));
        break;
      }
    }
  }
  k::pack_extent(pack, size, loop, nd);

  const int block = opts.block_size > 0 ? opts.block_size : 256;
  const index_t blocks =
      std::min<index_t>((size + block - 1) / block, static_cast<index_t>(k::sm_count(device)) * 32);
  cuda::check(
      cudaLaunchKernel(reinterpret_cast<const void*>(handle), dim3(static_cast<unsigned>(blocks)),
                       dim3(static_cast<unsigned>(block)), pack.pointers(), 0,
                       k::stream_of(opts.stream, device)),
      "ElementwiseKernel launch");
  return result;
}

}  // namespace cupp
