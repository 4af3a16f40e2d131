// numpy.set_printoptions' options as a struct, cupp::print_options (with
// cupp::float_mode, NumPy's floatmode=), which <cupp/print.hpp>'s
// set_printoptions, get_printoptions, printoptions and array2string take.
// A vocabulary header, so that the printing machinery of detail/print/
// reads the options as the public functions receive them.
// cupp-layer: vocabulary
#pragma once

#include <string>

#include <cupp/config.hpp>

namespace cupp {

// numpy's floatmode: how many fraction digits floats get.
enum class float_mode {
  fixed,          // always `precision` digits
  unique,         // as many as each value needs to be read back exactly
  maxprec,        // as many as needed, at most `precision` (NumPy's default)
  maxprec_equal,  // as many as the element that needs most, at most `precision`
};

// numpy.set_printoptions' options (legacy, formatter and override_repr
// aside).
struct print_options {
  int precision = 8;         // fraction digits of floats, at most
  index_t threshold = 1000;  // arrays with more elements are summarised
  int edgeitems = 3;         // elements kept at each end of a summarised axis
  int linewidth = 75;        // characters per line
  bool suppress = false;     // never switch to scientific notation for small values
  std::string nanstr = "nan";
  std::string infstr = "inf";
  char sign = '-';  // '-': only negatives; '+': always; ' ': a space for positives
  float_mode floatmode = float_mode::maxprec;
};

}  // namespace cupp
