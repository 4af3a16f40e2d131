// Everything cupp offers. Include a single concern (<cupp/ndarray.hpp>,
// <cupp/npy.hpp>, ...) instead where compile time matters.
#pragma once

#include <cupp/advanced_indexing.hpp>
#include <cupp/boolean_indexing.hpp>
#include <cupp/config.hpp>
#include <cupp/creation.hpp>
#include <cupp/diagonals.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/dtype.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression.hpp>
#include <cupp/generators.hpp>
#include <cupp/indexing.hpp>
#include <cupp/joining.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/module.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/npy.hpp>
#include <cupp/print.hpp>
#include <cupp/rearranging.hpp>
#include <cupp/reductions.hpp>
#include <cupp/shape.hpp>
#include <cupp/ufunc.hpp>
