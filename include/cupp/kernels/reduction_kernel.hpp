// cupp::ReductionKernel: CuPy's ReductionKernel, with CuPy's string syntax.
// Part of <cupp/kernels.hpp> (link cupp::kernels).
//
//   cupp::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   cupp::ndarray<float> n = l2norm(x);                                     // every axis
//   cupp::ndarray<float> rows = l2norm(x, cupp::reduction_call{.axis = {1}});
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <cupp/kernels/elementwise_kernel.hpp>

namespace cupp {

// What CuPy's ReductionKernel takes besides its seven strings: the
// accumulator's type (a dtype name, a placeholder or any C++ type the
// preamble defines; the output's type by default).
struct reduction_kernel_options {
  std::string reduce_type = {};
  bool reduce_dims = true;
  std::string preamble = {};
  std::vector<std::string> options = {};  // NVRTC options
};

// Options of one call, passed as the last argument: the axes reduced (all
// if none; negative ones count from the end), keepdims, the stream.
struct reduction_call {
  std::optional<std::vector<int>> axis = std::nullopt;
  bool keepdims = false;
  std::optional<cuda::Stream> stream = std::nullopt;
};

class ReductionKernel {
 public:
  ReductionKernel(std::string in_params, std::string out_params, std::string map_expr,
                  std::string reduce_expr, std::string post_map_expr, std::string identity,
                  std::string name = "reduce_kernel", reduction_kernel_options options = {})
      : s_(std::make_shared<state>()) {
    namespace k = detail::kernels;
    auto [in, out] = k::parse_signature("ReductionKernel", in_params, out_params, name);
    s_->in = std::move(in);
    s_->out = std::move(out);
    if (s_->out.size() != 1)
      throw value_error("ReductionKernel: exactly one output parameter, " +
                        std::to_string(s_->out.size()) + " given");
    if (s_->in.empty()) throw value_error("ReductionKernel: no input parameters");
    if (s_->in.size() + 1 > k::max_kernel_params)
      throw value_error("ReductionKernel: too many parameters");
    for (const auto& p : s_->in)
      if (p.raw)
        throw value_error("ReductionKernel: raw parameter '" + p.name + "' (not supported)");
    if (s_->out[0].raw) throw value_error("ReductionKernel: the output cannot be raw");
    s_->in_text = std::move(in_params);
    s_->out_text = std::move(out_params);
    s_->map_expr = std::move(map_expr);
    s_->reduce_expr = std::move(reduce_expr);
    s_->post_map_expr = std::move(post_map_expr);
    s_->identity = std::move(identity);
    s_->name = std::move(name);
    s_->opts = std::move(options);
  }

  // kernel(inputs...) allocates the output; kernel(inputs..., out) writes
  // into it. A cupp::reduction_call may come last.
  template <class... A>
  kernel_outputs operator()(const A&... args) const {
    constexpr std::size_t n = sizeof...(A);
    detail::kernels::any_arg captured[n == 0 ? 1 : n];
    reduction_call opts;
    const std::size_t count = detail::kernels::capture_args(captured, opts, args...);
    return call(std::span(captured, count), opts);
  }

  const std::string& name() const noexcept { return s_->name; }
  std::size_t nin() const noexcept { return s_->in.size(); }
  std::size_t nout() const noexcept { return 1; }

 private:
  struct state {
    std::vector<detail::kernels::param_info> in, out;
    std::string in_text, out_text, map_expr, reduce_expr, post_map_expr, identity, name;
    reduction_kernel_options opts;
    detail::kernels::signature_table kernels;
  };

  kernel_outputs call(std::span<detail::kernels::any_arg> args, const reduction_call& opts) const;

  std::shared_ptr<state> s_;
};

inline kernel_outputs ReductionKernel::call(std::span<detail::kernels::any_arg> args,
                                            const reduction_call& opts) const {
  namespace k = detail::kernels;
  const state& s = *s_;
  const std::size_t nin = s.in.size();
  if (args.size() != nin && args.size() != nin + 1)
    throw type_error(s.name + ": takes " + std::to_string(nin) + " or " + std::to_string(nin + 1) +
                     " arguments, " + std::to_string(args.size()) + " given");
  const bool out_given = args.size() == nin + 1;
  const int device = cuda::runtime::getDevice();
  k::arg_kind kinds[k::max_kernel_params];
  for (std::size_t a = 0; a < args.size(); ++a) {
    k::check_device(args[a], device, s.name);
    kinds[a] = {args[a].type, args[a].is_array};
  }
  const k::type_binding b =
      k::bind_types(s.name, s.in, s.out, kinds, out_given ? kinds + nin : nullptr);
  const dtype_id out_type = b.type_of(s.out[0], s.name);

  // The accumulator's C++ type and, where known, its size (for partials).
  std::string reduce_type = s.opts.reduce_type;
  if (reduce_type.empty()) reduce_type = k::declared_type(s.out[0]);
  std::size_t reduce_size = 0;
  if (const auto d = dtype::from_name(reduce_type)) {
    reduce_type = k::c_type_name(d->id);
    reduce_size = static_cast<std::size_t>(d->itemsize);
  } else if (reduce_type.size() == 1 && b.of(reduce_type[0])) {
    reduce_size = static_cast<std::size_t>(descriptor(*b.of(reduce_type[0])).itemsize);
  } else {
    reduce_size = k::known_type_size(reduce_type);
  }

  // The broadcast shape of the inputs, and the axes reduced.
  shape_t shapes[k::max_kernel_params];
  int nshapes = 0;
  for (std::size_t a = 0; a < nin; ++a)
    if (args[a].is_array) shapes[nshapes++] = args[a].shape;
  const shape_t shape = detail::broadcast_shapes(std::span<const shape_t>(shapes, nshapes));
  const int ndim = shape.size();
  bool reduced[max_ndim] = {};
  if (opts.axis) {
    for (const int ax : *opts.axis) {
      if (ax < -ndim || ax >= ndim)
        throw axis_error("axis " + std::to_string(ax) +
                         " is out of bounds for array of dimension " + std::to_string(ndim));
      const int a = ax < 0 ? ax + ndim : ax;
      if (reduced[a]) throw value_error("duplicate value in 'axis'");
      reduced[a] = true;
    }
  } else {
    std::fill(reduced, reduced + ndim, true);
  }
  shape_t out_shape, kept_shape, red_shape;
  for (int d = 0; d < ndim; ++d) {
    if (!reduced[d]) {
      out_shape.push_back(shape[d]);
      kept_shape.push_back(shape[d]);
    } else {
      red_shape.push_back(shape[d]);
      if (opts.keepdims) out_shape.push_back(1);
    }
  }
  const index_t m_size = detail::size_of(kept_shape), r_size = detail::size_of(red_shape);
  if (r_size == 0 && m_size > 0 && s.identity.empty())
    throw value_error("zero-size array to reduction operation " + s.name +
                      " which has no identity");

  kernel_outputs result;
  auto& outs = result.list();
  if (out_given) {
    const k::any_arg& o = args[nin];
    if (o.shape != out_shape)
      throw value_error(s.name + ": the output's shape " + detail::np_shape(o.shape) +
                        " is not the reduction's " + detail::np_shape(out_shape));
    outs.push_back({o.data, o.shape, o.strides, o.owner, o.device, o.type, false});
  } else {
    outs.push_back(k::allocate_output(out_shape, out_type, device));
  }
  if (m_size == 0) return result;

  // Each operand's strides over the kept axes and over the reduced axes.
  const std::size_t nparams = nin + 1;
  strides_t kept[k::max_kernel_params], red[k::max_kernel_params];
  std::vector<strides_t*> kept_list, red_list;
  for (std::size_t a = 0; a < nparams; ++a) {
    const bool array = a < nin ? args[a].is_array : true;
    if (!array) continue;
    strides_t full;
    if (a < nin) {
      full = detail::broadcast_strides(args[a].shape, args[a].strides, shape);
    } else {  // the output: its strides on the kept axes, none on the reduced ones
      const strides_t& os = outs[0].strides;
      full = strides_t::filled(ndim, 0);
      for (int d = 0, o = 0; d < ndim; ++d) {
        if (!reduced[d] || opts.keepdims) {
          if (!reduced[d]) full[d] = os[o];
          ++o;
        }
      }
    }
    for (int d = 0; d < ndim; ++d) (reduced[d] ? red[a] : kept[a]).push_back(full[d]);
    kept_list.push_back(&kept[a]);
    if (a < nin) red_list.push_back(&red[a]);
  }
  shape_t kloop = kept_shape, rloop = red_shape;
  int nk, nr;
  if (s.opts.reduce_dims) {
    nk = k::merge_axes_c_order(kloop, kept_list);
    nr = k::merge_axes_c_order(rloop, red_list);
  } else {
    const auto pad = [](shape_t& sh, std::vector<strides_t*>& st) {
      if (sh.size() == 0) {
        sh = shape_t{1};
        for (strides_t* x : st) *x = strides_t{0};
      }
      return sh.size();
    };
    nk = pad(kloop, kept_list);
    nr = pad(rloop, red_list);
  }

  // One thread per output for short reductions, a warp for middling ones,
  // a block for long ones; long reductions into few outputs are split into
  // chunks whose partials a second kernel combines.
  const int group = r_size <= 16 ? 1 : r_size <= 1024 ? 32 : 256;
  const index_t sms = k::sm_count(device);
  index_t chunks = 1;
  if (group == 256 && reduce_size > 0 && m_size < 2 * sms)
    chunks =
        std::max<index_t>(1, std::min((r_size + 2047) / 2048, (8 * sms + m_size - 1) / m_size));
  const index_t work = m_size * chunks;
  const bool wide = work * 256 > 0x7fffffff || r_size > 0x7fffffff || m_size > 0x7fffffff;

  k::param_layout layouts[k::max_kernel_params];
  bool headers = false;
  std::string key;
  key += static_cast<char>(device);
  key += static_cast<char>(nk);
  key += static_cast<char>(nr);
  key += static_cast<char>(wide);
  key += static_cast<char>(group);
  for (std::size_t a = 0; a < nparams; ++a) {
    const k::param_info& p = a < nin ? s.in[a] : s.out[0];
    const dtype_id t = b.type_of(p, s.name);
    const bool array = a < nin ? args[a].is_array : true;
    layouts[a] = {t, array ? k::param_layout::array : k::param_layout::scalar};
    headers |= k::needs_headers(t);
    key += static_cast<char>(t);
    key += static_cast<char>(layouts[a].kind);
  }
  cudaKernel_t handle = s.kernels.find(key), finish = nullptr;
  if (handle) finish = s.kernels.find(key + "f");
  if (!handle) {
    k::reduction_source_spec spec{
        &s.in,      &s.out[0],     std::vector<k::param_layout>(layouts, layouts + nparams),
        &b,         reduce_type,   nk,
        nr,         wide,          group,
        s.map_expr, s.reduce_expr, s.post_map_expr,
        s.identity, s.name,        s.opts.preamble};
    const std::string source = k::reduction_source(spec);
    handle = k::load_generated(source, s.name, s.opts.options, headers, device);
    finish = k::load_generated(source, s.name + "_finish", s.opts.options, headers, device);
    s.kernels.insert(key, handle);
    s.kernels.insert(key + "f", finish);
  }

  // Partials of the chunks, from the pool for the call's length.
  cuda::memory_ptr partials, valid;
  if (chunks > 1) {
    partials = cuda::alloc(static_cast<std::size_t>(work) * reduce_size);
    if (s.identity.empty()) valid = cuda::alloc(static_cast<std::size_t>(work));
  }

  k::argument_pack pack;
  for (std::size_t a = 0; a < nparams; ++a) {
    const void* data = a < nin ? args[a].data : outs[0].data;
    if (layouts[a].kind == k::param_layout::array) {
      k::pack_strided(pack, data, kept[a], nk);
      if (a < nin) k::pack_strided(pack, data, red[a], nr);
    } else {
      const dtype_id t = layouts[a].type;
      k::convert_scalar(args[a], t,
                        pack.reserve(static_cast<std::size_t>(descriptor(t).itemsize),
                                     static_cast<std::size_t>(k::dtype_alignment(t))));
    }
  }
  k::pack_extent(pack, m_size, kloop, nk);
  k::pack_extent(pack, r_size, rloop, nr);
  pack.add(static_cast<long long>(detail::size_of(shape)));
  pack.add(static_cast<long long>(chunks));
  pack.add(partials.get());
  pack.add(static_cast<bool*>(valid.get()));

  const cudaStream_t stream = k::stream_of(opts.stream, device);
  const index_t per_block = 256 / group;
  const index_t blocks = std::min<index_t>((work + per_block - 1) / per_block, sms * 8);
  cuda::check(
      cudaLaunchKernel(reinterpret_cast<const void*>(handle), dim3(static_cast<unsigned>(blocks)),
                       dim3(256), pack.pointers(), 0, stream),
      "ReductionKernel launch");
  if (chunks > 1) {
    const index_t fblocks = std::min<index_t>(m_size, sms * 8);
    cuda::check(cudaLaunchKernel(reinterpret_cast<const void*>(finish),
                                 dim3(static_cast<unsigned>(fblocks)), dim3(256), pack.pointers(),
                                 0, stream),
                "ReductionKernel launch");
  }
  return result;
}

}  // namespace cupp
