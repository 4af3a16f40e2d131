// The device-path translation units of tests/device_paths/: one function per
// area, each calling every public function of that area on device arrays
// (checks.hpp holds the checks they share).
//
// CI, which has no GPU, compiles these units so that a compile error in
// device code still fails it; the GPU machine runs them (device_paths_gpu_test)
// as a smoke test.
#pragma once

void device_paths_elementwise();
void device_paths_math();
void device_paths_misc();
void device_paths_creation();
void device_paths_reductions();
void device_paths_reductions_extrema();
void device_paths_reductions_logic();
void device_paths_reductions_nan();
void device_paths_scans();
void device_paths_indexing();
void device_paths_masks();
void device_paths_manipulation();
void device_paths_rearranging();
void device_paths_io();
void device_paths_linalg();
void device_paths_linalg_solvers();
void device_paths_correlation();
void device_paths_sort();
void device_paths_distributed_array();
void device_paths_random();
void device_paths_random_float32();
void device_paths_random_gamma();
void device_paths_random_discrete();
void device_paths_random_shuffle();
void device_paths_kernels();
void device_paths_interop();
// Built where NCCL is found (CUPP_HAVE_NCCL).
void device_paths_distributed();
