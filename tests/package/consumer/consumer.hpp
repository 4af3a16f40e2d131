// What the files of the consumer share. host_side.cpp is compiled by the
// host compiler (g++), the .cu files by nvcc; arrays cross between them.
#pragma once

#include <cupp/creation.hpp>
#include <cupp/ndarray.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace consumer {

// host_side.cpp
std::string describe(const cupp::ndarray<float>& x);  // "(2, 3) float32 array(...)"
std::string describe(const cupp::host::ndarray<float>& x);
cupp::host::ndarray<float> fetch(const cupp::ndarray<float>& x);         // x.get()
cupp::ndarray<float> upload(const cupp::host::ndarray<float>& h);        // set() into a new array
cupp::host::ndarray<float> affine(const cupp::host::ndarray<float>& h);  // 2 * h + 1
// Prints a line and returns false when `got` (C order) is not `want`.
bool expect(const cupp::host::ndarray<float>& got, const std::vector<float>& want,
            const std::string& what);

// math.cu: element-wise expressions, reductions, cumsum.
int check_math(bool device);
// indexing.cu: views, integer-array and boolean-mask indexing, concatenate.
int check_indexing(bool device);

// The host array itself, or a device copy of it.
template <class S, class T>
cupp::ndarray<T, S> place(const cupp::host::ndarray<T>& h) {
  if constexpr (std::is_same_v<S, cupp::device_space>)
    return cupp::asarray(h);
  else
    return h;
}

}  // namespace consumer
