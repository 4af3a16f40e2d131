// The print options in force: per thread, as NumPy 2's are per context,
// checked as numpy.set_printoptions checks them, and read by the float
// formatter as float_settings.
#pragma once

#include <cupp/config.hpp>
#include <cupp/detail/print/formatters.hpp>
#include <cupp/errors.hpp>
#include <cupp/print_options.hpp>

namespace cupp::detail::print {

inline void check(const print_options& o) CUPP_HOST_BODY({
  if (o.sign != '-' && o.sign != '+' && o.sign != ' ')
    throw value_error("sign option must be one of ' ', '+', or '-'");
  if (o.precision < 0) throw value_error("precision must be >= 0");
  if (o.edgeitems < 0) throw value_error("edgeitems must be >= 0");
});

// Options are per thread, as NumPy 2's are per context: a scope in one
// thread does not change what another prints.
inline print_options& current_options() CUPP_HOST_BODY({
  thread_local print_options options;
  return options;
});

inline float_settings settings_of(const print_options& o) CUPP_HOST_BODY({
  float_settings s;
  s.precision = o.precision;
  switch (o.floatmode) {
    case float_mode::fixed:
      s.style = float_style::fixed;
      break;
    case float_mode::unique:
      s.style = float_style::unique;
      break;
    case float_mode::maxprec:
      s.style = float_style::maxprec;
      break;
    case float_mode::maxprec_equal:
      s.style = float_style::maxprec_equal;
      break;
  }
  s.suppress = o.suppress;
  s.sign = o.sign;
  s.nanstr = o.nanstr;
  s.infstr = o.infstr;
  return s;
});

}  // namespace cupp::detail::print
