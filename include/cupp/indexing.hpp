// Basic indexing: the index types (slice, newaxis, ellipsis, `_`,
// index_item) live in the vocabulary header <cupp/index_types.hpp>, which
// internal headers may include; ndarray::operator() applies them. This
// header stays for the programs that include it by this name.
#pragma once

#include <cupp/index_types.hpp>
