// What linear algebra of host arrays asks of the build, and what a build
// that does not give it is told. CUPP_HAVE_HOST_BLAS=1 says that OpenBLAS's
// CBLAS and LAPACKE are there (cupp::linalg defines it where its configure
// found both; a build without CMake passes it itself). A function of host
// arrays compiled without it stops with CUPP_DETAIL_NO_HOST_BLAS's message,
// which tells the two ways to get there apart: the headers are missing
// (install them, then rerun CMake) or they are installed and the build did
// not say so (link cupp::linalg, rerun a configure that ran before they were
// installed, or pass the flags by hand).
#pragma once

#if CUPP_HAVE_HOST_BLAS
#if !__has_include(<cblas.h>)
#error \
    "cupp: CUPP_HAVE_HOST_BLAS is defined, but OpenBLAS's <cblas.h> is not on the include path. Install it (Debian/Ubuntu: sudo apt install libopenblas-dev) and rerun CMake; without CMake, add its folder with -I (on Debian it is found without one once installed)."
#else
#include <cblas.h>
#endif
#if !__has_include(<lapacke.h>)
#error \
    "cupp: CUPP_HAVE_HOST_BLAS is defined, but LAPACKE's <lapacke.h> is not on the include path. Install it (Debian/Ubuntu: sudo apt install liblapacke-dev) and rerun CMake; without CMake, add its folder with -I."
#endif
#endif

// WHAT: the function, e.g. "cupp::linalg::solve". A string literal, as
// static_assert wants one.
#if __has_include(<cblas.h>) && __has_include(<lapacke.h>)
#define CUPP_DETAIL_NO_HOST_BLAS(WHAT)                                                          \
  "cupp: " WHAT                                                                                 \
  " on host arrays needs OpenBLAS and LAPACKE. Their headers are installed, but "               \
  "CUPP_HAVE_HOST_BLAS is not defined in this build. With CMake: link cupp::linalg, and rerun " \
  "CMake if they were installed after it configured this build (cupp::linalg defines "          \
  "CUPP_HAVE_HOST_BLAS where the configure finds both). Without CMake: compile with "           \
  "-DCUPP_HAVE_HOST_BLAS=1 and link -llapacke -lopenblas."
#else
#define CUPP_DETAIL_NO_HOST_BLAS(WHAT)                                                       \
  "cupp: " WHAT                                                                              \
  " on host arrays needs OpenBLAS and LAPACKE, whose headers (cblas.h, "                     \
  "lapacke.h) are not found. Install them (Debian/Ubuntu: sudo apt install libopenblas-dev " \
  "liblapacke-dev), then rerun CMake and link cupp::linalg; without CMake, compile with "    \
  "-DCUPP_HAVE_HOST_BLAS=1 and link -llapacke -lopenblas."
#endif
