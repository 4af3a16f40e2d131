# Interop (<cupp/dlpack.hpp>, <cupp/iterator.hpp>, <cupp/mdspan.hpp>):
# DLPack exchange of host arrays, iterators over host arrays and the
# capsule-free parts need no GPU (interop_host_test); device arrays, CUB and
# Thrust over iterators and mdspan in a user's kernel do (interop_gpu_test).
cupp_add_test(interop_host_test host interop_dlpack_host_test.cu interop_iterator_host_test.cu)
cupp_add_test(interop_gpu_test gpu interop_dlpack_test.cu interop_iterator_test.cu
              interop_mdspan_test.cu)
