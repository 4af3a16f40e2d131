// NumPy's sorting, searching, counting, set, order-statistics and histogram
// routines for device arrays (CUB's radix, segmented, selection, run-length
// and histogram primitives) and host arrays. Not part of <cupp/cupp.hpp>: a
// program that sorts includes this header (CUB is part of the CUDA toolkit,
// so nothing more is linked); one that does not compiles none of it. See
// docs/sorting.md.
#pragma once

#include <cupp/sort/histogram.hpp>
#include <cupp/sort/partition.hpp>
#include <cupp/sort/quantile.hpp>
#include <cupp/sort/search.hpp>
#include <cupp/sort/sets.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/unique.hpp>
