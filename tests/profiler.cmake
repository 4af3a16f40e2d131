# Memory hooks and profiling (<cupp/cuda/memory_hook.hpp>, <cupp/profiler.hpp>):
# the hook stack, the pools' bookkeeping events, the provided hooks and
# benchmark of a host function need no GPU (profiler_host_test); the hooks
# under real array operations and the GPU timings do (profiler_gpu_test).
cupp_add_test(profiler_host_test host profiler_host_test.cu)
cupp_add_test(profiler_gpu_test gpu profiler_gpu_test.cu)
