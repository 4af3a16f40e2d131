// The parameter lists of CuPy's kernel templates ("T x, raw float32 y"):
// parsed once when a kernel object is made, and bound to the dtypes of each
// call's arguments (placeholders such as T take the dtype of the arrays
// given for them). Plain code with no templates, shared by every kernel.
#pragma once

#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::kernels {

// Parameters of one kernel, inputs and outputs together.
inline constexpr std::size_t max_kernel_params = 32;

// One parameter: `[raw] type name`, where type is a dtype name ("float32")
// or a one-letter placeholder ("T").
struct param_info {
  std::string name;
  std::optional<dtype_id> type;  // a fixed dtype, or none for a placeholder
  char placeholder = 0;          // the placeholder's letter when type is none
  bool raw = false;
  bool is_output = false;
};

inline bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Parses "T x, raw float32 y" (an empty string is no parameters). Syntax
// errors raise value_error naming the parameter, as CuPy raises them when
// the kernel object is made.
inline std::vector<param_info> parse_params(std::string_view text, bool outputs) {
  std::vector<param_info> out;
  std::size_t start = 0;
  const auto blank = [](std::string_view s) {
    for (const char c : s)
      if (!std::isspace(static_cast<unsigned char>(c))) return false;
    return true;
  };
  if (blank(text)) return out;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(start, end - start);
    std::vector<std::string> words;
    for (std::size_t i = 0; i < item.size();) {
      while (i < item.size() && std::isspace(static_cast<unsigned char>(item[i]))) ++i;
      std::size_t j = i;
      while (j < item.size() && !std::isspace(static_cast<unsigned char>(item[j]))) ++j;
      if (j > i) words.emplace_back(item.substr(i, j - i));
      i = j;
    }
    if (words.size() < 2)
      throw value_error("kernel parameter syntax error: '" + std::string(item) +
                        "' (expected '[raw] type name')");
    param_info p;
    p.is_output = outputs;
    p.name = words.back();
    const std::string& type = words[words.size() - 2];
    for (std::size_t w = 0; w + 2 < words.size(); ++w) {
      if (words[w] == "raw")
        p.raw = true;
      else
        throw value_error("kernel parameter '" + std::string(item) + "': unknown keyword '" +
                          words[w] + "'");
    }
    if (!is_identifier(p.name))
      throw value_error("kernel parameter '" + std::string(item) + "': '" + p.name +
                        "' is not an identifier");
    if (type.size() == 1 && std::isalpha(static_cast<unsigned char>(type[0]))) {
      p.placeholder = type[0];
    } else if (const auto d = dtype::from_name(type)) {
      p.type = d->id;
    } else {
      throw type_error("kernel parameter '" + std::string(item) + "': unknown type '" + type +
                       "' (a dtype name such as float32, or a one-letter placeholder)");
    }
    out.push_back(std::move(p));
    start = end + 1;
  }
  return out;
}

// Raises value_error where two parameters share a name.
inline void check_unique_names(const std::vector<param_info>& in,
                               const std::vector<param_info>& out) {
  std::vector<const param_info*> all;
  for (const auto& p : in) all.push_back(&p);
  for (const auto& p : out) all.push_back(&p);
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (all[i]->name == all[j]->name)
        throw value_error("kernel parameter '" + all[i]->name + "' is declared twice");
}

// The parameter lists of a kernel object, parsed and checked as its
// constructor does: `kind` ("ElementwiseKernel") starts the messages.
struct parsed_params {
  std::vector<param_info> in, out;
};
inline parsed_params parse_signature(const char* kind, std::string_view in, std::string_view out,
                                     const std::string& name) {
  parsed_params p{parse_params(in, false), parse_params(out, true)};
  check_unique_names(p.in, p.out);
  if (!is_identifier(name))
    throw value_error(std::string(kind) + ": the name '" + name + "' is not an identifier");
  return p;
}

// The C++ spelling of a dtype in generated code.
inline const char* c_type_name(dtype_id d) {
  switch (d) {
    case dtype_id::bool_:
      return "bool";
    case dtype_id::int8:
      return "signed char";
    case dtype_id::int16:
      return "short";
    case dtype_id::int32:
      return "int";
    case dtype_id::int64:
      return "long long";
    case dtype_id::uint8:
      return "unsigned char";
    case dtype_id::uint16:
      return "unsigned short";
    case dtype_id::uint32:
      return "unsigned int";
    case dtype_id::uint64:
      return "unsigned long long";
    case dtype_id::float16:
      return "__half";
    case dtype_id::bfloat16:
      return "__nv_bfloat16";
    case dtype_id::float32:
      return "float";
    case dtype_id::float64:
      return "double";
    case dtype_id::complex64:
      return "::cuda::std::complex<float>";
    case dtype_id::complex128:
      return "::cuda::std::complex<double>";
  }
  return "void";
}

// The size of a C++ type named in a reduce_type, where cupp knows it (a
// dtype's C++ name); 0 for a type of the user's.
inline std::size_t known_type_size(const std::string& t) {
  for (int d = 0; d < n_dtypes; ++d)
    if (t == c_type_name(static_cast<dtype_id>(d)))
      return static_cast<std::size_t>(descriptor(static_cast<dtype_id>(d)).itemsize);
  if (t == "long") return sizeof(long);
  return 0;
}

inline int dtype_alignment(dtype_id d) {
  const int size = descriptor(d).itemsize;
  return d == dtype_id::complex64 ? 8 : d == dtype_id::complex128 ? 16 : size;
}

// What one call passes for a parameter: an array (its dtype) or a scalar
// (its C++ type's dtype).
struct arg_kind {
  dtype_id type;
  bool is_array;
};

// The placeholders' dtypes for one call, bound as CuPy binds them: from the
// output arrays given, then from the input arrays, each array's dtype
// matching its parameter's fixed type or the placeholder's earlier binding
// exactly; scalars take their parameter's type, and bind a placeholder no
// array binds.
struct type_binding {
  std::optional<dtype_id> letters[52];

  static int slot(char c) { return c >= 'a' ? 26 + (c - 'a') : c - 'A'; }
  std::optional<dtype_id>& of(char c) { return letters[slot(c)]; }
  const std::optional<dtype_id>& of(char c) const { return letters[slot(c)]; }

  dtype_id type_of(const param_info& p, const std::string& kernel) const {
    if (p.type) return *p.type;
    if (const auto& t = of(p.placeholder)) return *t;
    throw type_error(kernel + ": cannot determine the type '" + std::string(1, p.placeholder) +
                     "' of parameter '" + p.name + "' (no array argument binds it)");
  }
};

[[noreturn]] inline void type_mismatch(const std::string& kernel, const param_info& p, dtype_id got,
                                       dtype_id want) {
  throw type_error(kernel + ": type is mismatched: parameter '" + p.name + "' takes " +
                   std::string(descriptor(want).name) + ", the argument is " +
                   std::string(descriptor(got).name));
}

inline type_binding bind_types(const std::string& kernel, const std::vector<param_info>& in,
                               const std::vector<param_info>& out, const arg_kind* in_args,
                               const arg_kind* out_args /* null: outputs not given */) {
  type_binding b;
  const auto bind_array = [&](const param_info& p, dtype_id got) {
    if (p.type) {
      if (*p.type != got) type_mismatch(kernel, p, got, *p.type);
    } else if (auto& t = b.of(p.placeholder)) {
      if (*t != got) type_mismatch(kernel, p, got, *t);
    } else {
      t = got;
    }
  };
  if (out_args)
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (!out_args[k].is_array)
        throw type_error(kernel + ": output argument '" + out[k].name + "' must be an array");
      bind_array(out[k], out_args[k].type);
    }
  for (std::size_t k = 0; k < in.size(); ++k)
    if (in_args[k].is_array) bind_array(in[k], in_args[k].type);
  // Scalars bind only what no array bound: a C++ scalar's type is exact
  // (a double binds float64), where CuPy would apply NumPy's rules to a
  // Python scalar.
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!in_args[k].is_array && !in[k].type && !b.of(in[k].placeholder))
      b.of(in[k].placeholder) = in_args[k].type;
  return b;
}

}  // namespace cupp::detail::kernels
