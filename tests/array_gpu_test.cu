#include "cupp_test.hpp"
