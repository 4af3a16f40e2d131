// NumPy's random numbers for device arrays (cupp::random) and host arrays
// (cupp::host::random): counter-based Philox4x32-10 generators whose draws
// are lazy arrays that fuse into expressions, give the same numbers on any
// grid, device and number of devices, and the same bits on the host. Not
// part of <cupp/cupp.hpp>: a program that draws random numbers includes this
// header and links cupp::random. See docs/random.md.
#pragma once

#include <cupp/random/bit_generator.hpp>
#include <cupp/random/generator.hpp>
#include <cupp/random/legacy.hpp>
