// Exception types. Each mirrors the Python exception NumPy or CuPy raises for
// the same mistake, so that code ported from NumPy catches the same things.
// cupp-layer: vocabulary
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include <cupp/config.hpp>

namespace cupp {

// ValueError: an argument has the right type but an unacceptable value
// (shapes that do not match, negative dimensions, a corrupt .npy header).
class value_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// TypeError: the dtype of an argument does not fit the operation.
class type_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// IndexError: an index outside the array's bounds or too many indices.
class index_error : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

// OverflowError: a Python integer that does not fit the dtype an operation
// resolves to (`int8_array + 300`).
class overflow_error : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

// numpy.exceptions.AxisError, which NumPy derives from ValueError.
class axis_error : public value_error {
 public:
  using value_error::value_error;
};

// numpy.linalg.LinAlgError, which NumPy derives from ValueError: a singular
// matrix, one that is not positive definite, a factorisation that does not
// converge.
class linalg_error : public value_error {
 public:
  using value_error::value_error;
};

namespace detail {
inline int& linalg_unchecked_depth() noexcept CUPP_HOST_BODY({
  thread_local int depth = 0;
  return depth;
});
}  // namespace detail

namespace linalg {
// Whether linear algebra on this thread reads the solvers' status (info)
// and throws linalg_error for a singular matrix, one that is not positive
// definite or a factorisation that does not converge: NumPy's behaviour and
// cupp's default. On the device the read waits for the stream.
inline bool checks_errors() noexcept {
  return ::cupp::detail::linalg_unchecked_depth() == 0;
}

// A scope in which this thread's linear algebra does not read the solvers'
// status, so that device calls stay asynchronous (CuPy's default): a
// singular matrix then gives NaN or Inf in the result instead of an
// exception. Scopes nest.
class unchecked {
 public:
  unchecked() noexcept { ++::cupp::detail::linalg_unchecked_depth(); }
  ~unchecked() { --::cupp::detail::linalg_unchecked_depth(); }
  unchecked(const unchecked&) = delete;
  unchecked& operator=(const unchecked&) = delete;
};
}  // namespace linalg

// ZeroDivisionError: numpy.average with weights that sum to zero.
class zero_division_error : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

// OSError: a file that cannot be opened, read or written.
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// cupy.cuda.compiler.CompileException: the source of a run-time kernel
// (<cupp/kernels.hpp>) did not compile. what() gives NVRTC's log followed by
// the source lines it points at; log() is NVRTC's log alone.
class compile_error : public std::runtime_error {
 public:
  compile_error(const std::string& message, std::string log)
      : std::runtime_error(message), log_(std::move(log)) {}
  const std::string& log() const noexcept { return log_; }

 private:
  std::string log_;
};

// cupy.cuda.memory.OutOfMemoryError: the allocator could not satisfy a
// request even after releasing its cached blocks.
class out_of_memory_error : public std::bad_alloc {
 public:
  out_of_memory_error(std::string message, std::size_t requested, std::size_t total,
                      std::size_t limit)
      : message_(std::move(message)), requested_(requested), total_(total), limit_(limit) {}
  const char* what() const noexcept override { return message_.c_str(); }
  // Bytes asked for (after rounding), bytes the pool held, and its limit
  // (0 when there is none).
  std::size_t requested_bytes() const noexcept { return requested_; }
  std::size_t total_bytes() const noexcept { return total_; }
  std::size_t limit_bytes() const noexcept { return limit_; }

 private:
  std::string message_;
  std::size_t requested_, total_, limit_;
};

}  // namespace cupp
