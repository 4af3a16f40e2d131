// The CUDA source of an ElementwiseKernel or ReductionKernel for one
// signature: the parameters' dtypes, which are arrays, the merged rank the
// kernel indexes and the width of its index arithmetic. The user's code is
// pasted in where CuPy pastes it, so that CuPy's kernels port unchanged.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include <cupp/detail/kernels/params.hpp>

namespace cupp::detail::kernels {

// How one parameter is passed in a given call.
struct param_layout {
  dtype_id type;
  enum kind_t : unsigned char { array, contiguous_array, raw_array, scalar } kind;
  int raw_ndim = 1;             // raw arrays: the rank they are indexed with
  bool raw_contiguous = false;  // raw arrays: C-contiguous
};

// What is shared by every generated kernel: strided operands and raw arrays
// (CuPy's CArray: x[i] is the i-th element in C order, x[idx] takes a full
// index, x.size(), x.shape(), x.strides()).
inline const char* kernel_support_source() {
  return R"(namespace cupp_rt {
template <int N> struct strided { char* data; long long strides[N]; };
template <int N> struct extent { long long size; long long dims[N]; };
template <class T, int N, bool C> struct raw_array {
  T* data_; long long size_; long long shape_[N]; long long strides_[N];
  __device__ long long size() const { return size_; }
  __device__ const long long* shape() const { return shape_; }
  __device__ const long long* strides() const { return strides_; }
  __device__ T* data() const { return data_; }
  __device__ T& operator[](long long i) const {
    if (C) return data_[i];
    long long off = 0;
    for (int d = N - 1; d > 0; --d) { off += (i % shape_[d]) * strides_[d]; i /= shape_[d]; }
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off + i * strides_[0]);
  }
  __device__ T& operator[](const long long* idx) const {
    long long off = 0;
    for (int d = 0; d < N; ++d) off += idx[d] * strides_[d];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off);
  }
  __device__ T& operator[](const int* idx) const {
    long long off = 0;
    for (int d = 0; d < N; ++d) off += idx[d] * strides_[d];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off);
  }
};
struct indexer { long long n; __device__ long long size() const { return n; } };
}  // namespace cupp_rt
)";
}

// The headers the dtypes in use need (NVRTC has none built in).
inline std::string dtype_includes(const std::vector<dtype_id>& types) {
  bool half = false, bf16 = false, cplx = false;
  for (const dtype_id t : types) {
    half |= t == dtype_id::float16;
    bf16 |= t == dtype_id::bfloat16;
    cplx |= t == dtype_id::complex64 || t == dtype_id::complex128;
  }
  std::string s;
  if (half) s += "#include <cuda_fp16.h>\n";
  if (bf16) s += "#include <cuda_bf16.h>\n";
  if (cplx) s += "#include <cuda/std/complex>\n";
  return s;
}

// The CUDA toolkit's include directory, for the headers above: the
// CUPP_CUDA_INCLUDE_DIR environment variable, else the one cupp was built
// against, else $CUDA_PATH/include, else /usr/local/cuda/include.
inline std::string cuda_include_dir() {
  if (const char* e = std::getenv("CUPP_CUDA_INCLUDE_DIR"); e && *e) return e;
#ifdef CUPP_CUDA_INCLUDE_DIR
  return CUPP_CUDA_INCLUDE_DIR;
#else
  if (const char* e = std::getenv("CUDA_PATH"); e && *e) return std::string(e) + "/include";
  return "/usr/local/cuda/include";
#endif
}

// typedefs of the bound placeholders ("typedef float T;").
inline std::string placeholder_typedefs(const type_binding& b) {
  std::string s;
  for (int k = 0; k < 52; ++k)
    if (b.letters[k]) {
      const char letter = k < 26 ? static_cast<char>('A' + k) : static_cast<char>('a' + k - 26);
      s += "typedef " + std::string(c_type_name(*b.letters[k])) + " " + letter + ";\n";
    }
  return s;
}

// A parameter's type as the user's code sees it: its placeholder letter, or
// the dtype's C++ name.
inline std::string declared_type(const param_info& p) {
  return p.type ? std::string(c_type_name(*p.type)) : std::string(1, p.placeholder);
}

inline std::string kernel_parameter(const param_info& p, const param_layout& l, int nd) {
  const std::string t = declared_type(p);
  switch (l.kind) {
    case param_layout::array:
    case param_layout::contiguous_array:
      return "cupp_rt::strided<" + std::to_string(nd) + "> _p_" + p.name;
    case param_layout::raw_array:
      return "cupp_rt::raw_array<" + t + ", " + std::to_string(l.raw_ndim) + ", " +
             (l.raw_contiguous ? "true" : "false") + "> " + p.name;
    case param_layout::scalar:
      return t + " " + p.name;
  }
  return {};
}

// The element of a strided parameter at the coordinates _c0.._c{nd-1}
// (flat index _j where contiguous).
inline std::string element_ref(const param_info& p, const param_layout& l, int nd,
                               const std::string& prefix = "_c") {
  const std::string t = declared_type(p);
  if (l.kind == param_layout::contiguous_array)
    return "reinterpret_cast<" + t + "*>(_p_" + p.name + ".data)[_j]";
  std::string off;
  for (int d = 0; d < nd; ++d)
    off += (d ? " + " : "") + std::string("(long long)") + prefix + std::to_string(d) + " * _p_" +
           p.name + ".strides[" + std::to_string(d) + "]";
  return "*reinterpret_cast<" + t + "*>(_p_" + p.name + ".data + " + off + ")";
}

// Coordinates of flat index `flat` over `nd` dimensions of extent `ext`
// (C order: the last one fastest), in index type `idx`.
inline std::string coordinates(int nd, const std::string& flat, const std::string& ext,
                               const std::string& idx, const std::string& prefix = "_c") {
  std::string s = "    " + idx + " _r = " + flat + ";\n";
  for (int d = nd - 1; d > 0; --d) {
    const std::string e = "(" + idx + ")" + ext + ".dims[" + std::to_string(d) + "]";
    s += "    const " + idx + " " + prefix + std::to_string(d) + " = _r % " + e + "; _r /= " + e +
         ";\n";
  }
  s += "    const " + idx + " " + prefix + "0 = _r;\n";
  return s;
}

struct elementwise_source_spec {
  const std::vector<param_info>* in;
  const std::vector<param_info>* out;
  std::vector<param_layout> layouts;  // inputs then outputs
  const type_binding* binding;
  int nd;
  bool wide_index;
  std::string operation, name, preamble, loop_prep, after_loop;
};

inline std::string elementwise_source(const elementwise_source_spec& s) {
  std::vector<dtype_id> types;
  for (const auto& l : s.layouts) types.push_back(l.type);
  std::string src = dtype_includes(types) + kernel_support_source() +
                    placeholder_typedefs(*s.binding) + s.preamble + "\n";
  src += "extern \"C\" __global__ void " + s.name + "(";
  std::vector<const param_info*> all;
  for (const auto& p : *s.in) all.push_back(&p);
  for (const auto& p : *s.out) all.push_back(&p);
  for (std::size_t k = 0; k < all.size(); ++k)
    src += kernel_parameter(*all[k], s.layouts[k], s.nd) + ", ";
  src += "cupp_rt::extent<" + std::to_string(s.nd) + "> _extent) {\n";
  const std::string idx = s.wide_index ? "unsigned long long" : "unsigned int";
  src += "  const cupp_rt::indexer _ind{_extent.size};\n  " + s.loop_prep + "\n";
  src += "  for (" + idx + " _j = blockIdx.x * (" + idx + ")blockDim.x + threadIdx.x; _j < (" +
         idx + ")_extent.size; _j += (" + idx + ")blockDim.x * gridDim.x) {\n";
  src += "    const long long i = (long long)_j;\n";
  bool strided = false;
  for (std::size_t k = 0; k < all.size(); ++k) strided |= s.layouts[k].kind == param_layout::array;
  if (strided) src += coordinates(s.nd, "_j", "_extent", idx);
  for (std::size_t k = 0; k < all.size(); ++k) {
    const auto& l = s.layouts[k];
    if (l.kind != param_layout::array && l.kind != param_layout::contiguous_array) continue;
    const param_info& p = *all[k];
    src += "    " + std::string(p.is_output ? "" : "const ") + declared_type(p) +
           (p.is_output ? "& " : " ") + p.name + " = " + element_ref(p, l, s.nd) + ";\n";
  }
  src += "    " + s.operation + ";\n  }\n  " + s.after_loop + "\n}\n";
  return src;
}

struct reduction_source_spec {
  const std::vector<param_info>* in;
  const param_info* out;
  std::vector<param_layout> layouts;  // inputs then the output
  const type_binding* binding;
  std::string reduce_type;  // C++ type of the accumulator
  int nk, nr;               // merged kept and reduced ranks (>= 1)
  bool wide_index;
  int group;  // threads that reduce one output (1, 32 or 256); blocks of 256
  std::string map_expr, reduce_expr, post_map_expr, identity, name, preamble;
};

// Two kernels: `name` reduces a chunk of each output's reduced elements
// (chunks > 1: into partials, else into the output), `name_finish`
// combines each output's partials. Accumulators without an identity carry
// a validity flag.
inline std::string reduction_source(const reduction_source_spec& s) {
  std::vector<dtype_id> types;
  for (const auto& l : s.layouts) types.push_back(l.type);
  const bool has_id = !s.identity.empty();
  const std::string idx = s.wide_index ? "unsigned long long" : "unsigned int";
  std::string src = dtype_includes(types) + kernel_support_source() +
                    placeholder_typedefs(*s.binding) + "typedef " + s.reduce_type +
                    " _type_reduce;\n" + s.preamble + "\n";
  src +=
      "__device__ __forceinline__ _type_reduce _cupp_combine(const _type_reduce& a, const "
      "_type_reduce& b) { return (" +
      s.reduce_expr + "); }\n";
  const std::string nk = std::to_string(s.nk), nr = std::to_string(s.nr);
  std::string params;
  for (std::size_t k = 0; k < s.in->size(); ++k)
    params += kernel_parameter((*s.in)[k], s.layouts[k], s.nk) + ", " +
              (s.layouts[k].kind == param_layout::array
                   ? "cupp_rt::strided<" + nr + "> _q_" + (*s.in)[k].name + ", "
                   : std::string());
  params += kernel_parameter(*s.out, s.layouts.back(), s.nk) + ", ";
  params += "cupp_rt::extent<" + nk + "> _kept, cupp_rt::extent<" + nr +
            "> _red, long long _in_size, long long _chunks, _type_reduce* _partial, bool* _pvalid";
  // The output element at kept coordinates _c*, and the post-map.
  const auto write_out = [&](const std::string& value, const std::string& valid) {
    std::string w = "      _type_reduce a = " + value + ";\n";
    w += "      if (" + (has_id ? std::string("true") : valid) + ") {\n";
    w += "      " + declared_type(*s.out) + "& " + s.out->name + " = " +
         element_ref(*s.out, s.layouts.back(), s.nk) + ";\n";
    w += "      const cupp_rt::indexer _in_ind{_in_size}, _out_ind{_kept.size};\n";
    w += "      " + s.post_map_expr + ";\n      }\n";
    return w;
  };
  src += "extern \"C\" __global__ void __launch_bounds__(256) " + s.name + "(" + params + ") {\n";
  src += "  const int _g = " + std::to_string(s.group) + ", _lane = threadIdx.x % _g;\n";
  src += "  __shared__ alignas(16) unsigned char _sh_raw[256 * sizeof(_type_reduce)];\n";
  src += "  __shared__ bool _shv[256];\n";
  src += "  _type_reduce* _sh = reinterpret_cast<_type_reduce*>(_sh_raw);\n";
  src += "  const " + idx + " _work = (" + idx + ")_kept.size * (" + idx + ")_chunks;\n";
  src += "  for (" + idx + " _base = (" + idx +
         ")blockIdx.x * (256 / _g); _base < _work; _base += (" + idx +
         ")gridDim.x * (256 / _g)) {\n";
  src += "    const " + idx + " _w = _base + threadIdx.x / _g;\n";
  src += "    const bool _active = _w < _work;\n";
  src += "    const " + idx + " _m = _active ? _w / (" + idx +
         ")_chunks : 0, _chunk = _active ? _w % (" + idx + ")_chunks : 0;\n";
  src += coordinates(s.nk, "_m", "_kept", idx);
  src += "    _type_reduce _acc" + (has_id ? " = _type_reduce(" + s.identity + ")" : "") +
         ";\n    bool _valid = false;\n";
  src += "    if (_active)\n#pragma unroll 4\n";
  src += "      for (" + idx + " _k = _chunk * _g + _lane; _k < (" + idx + ")_red.size; _k += (" +
         idx + ")_chunks * _g) {\n";
  src += coordinates(s.nr, "_k", "_red", idx, "_d");
  for (std::size_t k = 0; k < s.in->size(); ++k) {
    const param_info& p = (*s.in)[k];
    if (s.layouts[k].kind != param_layout::array) continue;
    std::string off = element_ref(p, s.layouts[k], s.nk);
    off.pop_back();  // ")": add the reduced coordinates' offset
    for (int d = 0; d < s.nr; ++d)
      off += " + (long long)_d" + std::to_string(d) + " * _q_" + p.name + ".strides[" +
             std::to_string(d) + "]";
    src += "        const " + declared_type(p) + " " + p.name + " = " + off + ");\n";
  }
  src += "        const _type_reduce _v = (_type_reduce)(" + s.map_expr + ");\n";
  src += has_id ? "        _acc = _cupp_combine(_acc, _v);\n"
                : "        _acc = _valid ? _cupp_combine(_acc, _v) : _v; _valid = true;\n";
  src += "      }\n";
  if (s.group > 1) {
    src += "    _sh[threadIdx.x] = _acc; _shv[threadIdx.x] = _valid;\n    __syncthreads();\n";
    src += "    for (int _s = _g / 2; _s > 0; _s /= 2) {\n";
    src += "      if (_lane < _s) {\n";
    if (has_id)
      src += "        _sh[threadIdx.x] = _cupp_combine(_sh[threadIdx.x], _sh[threadIdx.x + _s]);\n";
    else
      src +=
          "        if (_shv[threadIdx.x + _s]) { _sh[threadIdx.x] = _shv[threadIdx.x] ? "
          "_cupp_combine(_sh[threadIdx.x], _sh[threadIdx.x + _s]) : _sh[threadIdx.x + _s]; "
          "_shv[threadIdx.x] = true; }\n";
    src += "      }\n      __syncthreads();\n    }\n";
    src += "    _acc = _sh[threadIdx.x - _lane]; _valid = _shv[threadIdx.x - _lane];\n";
    src += "    __syncthreads();\n";
  }
  src += "    if (_active && _lane == 0) {\n";
  src += "      if (_chunks > 1) { _partial[_w] = _acc; if (_pvalid) _pvalid[_w] = _valid; }\n";
  src += "      else {\n" + write_out("_acc", "_valid") + "      }\n";
  src += "    }\n  }\n}\n";

  // The finishing pass: a block per output combines its chunks' partials
  // (a tree over the block, as above).
  src += "extern \"C\" __global__ void __launch_bounds__(256) " + s.name + "_finish(" + params +
         ") {\n";
  src += "  __shared__ alignas(16) unsigned char _sh_raw[256 * sizeof(_type_reduce)];\n";
  src += "  __shared__ bool _shv[256];\n";
  src += "  _type_reduce* _sh = reinterpret_cast<_type_reduce*>(_sh_raw);\n";
  src += "  for (" + idx + " _m = blockIdx.x; _m < (" + idx + ")_kept.size; _m += gridDim.x) {\n";
  src += coordinates(s.nk, "_m", "_kept", idx);
  src += "    _type_reduce _acc;\n    bool _valid = false;\n";
  src += "    for (long long _c = threadIdx.x; _c < _chunks; _c += blockDim.x) {\n";
  src += "      const long long _at = (long long)_m * _chunks + _c;\n";
  src +=
      "      if (!_pvalid || _pvalid[_at]) { _acc = _valid ? _cupp_combine(_acc, _partial[_at]) : "
      "_partial[_at]; _valid = true; }\n";
  src += "    }\n";
  src += "    _sh[threadIdx.x] = _acc; _shv[threadIdx.x] = _valid;\n    __syncthreads();\n";
  src += "    for (int _s = 128; _s > 0; _s /= 2) {\n";
  src +=
      "      if (threadIdx.x < _s && _shv[threadIdx.x + _s]) { _sh[threadIdx.x] = "
      "_shv[threadIdx.x] "
      "? _cupp_combine(_sh[threadIdx.x], _sh[threadIdx.x + _s]) : _sh[threadIdx.x + _s]; "
      "_shv[threadIdx.x] = true; }\n";
  src += "      __syncthreads();\n    }\n";
  src += "    if (threadIdx.x == 0) {\n" + write_out("_sh[0]", "_shv[0]") + "    }\n";
  src += "    __syncthreads();\n  }\n}\n";
  return src;
}

}  // namespace cupp::detail::kernels
