# Several processes and several GPUs. The TCP store and the bootstrap
# between processes need no GPU and no NCCL (host test, run in CI); the
# communicator's tests need NCCL and a GPU (one-rank communicators on one
# GPU, every device of the machine where there are several). Where the full
# GPU tests are not built (CI), the area's device code is compiled by
# tests/device_paths (distributed.cu: NCCL and the process group, where
# NCCL is found; distributed_array.cu) and by the two workers below.
find_package(Threads REQUIRED)
cupp_add_test(distributed_store_host_test host distributed_store_test.cpp)
target_link_libraries(distributed_store_host_test PRIVATE Threads::Threads)

if(CUPP_HAVE_NCCL)
  cupp_add_test(nccl_gpu_test gpu nccl_test.cu)
  target_link_libraries(nccl_gpu_test PRIVATE cupp::nccl)
  cupp_add_test(distributed_array_gpu_test gpu distributed_array_test.cu)
  target_link_libraries(distributed_array_gpu_test PRIVATE cupp::nccl cupp::linalg)
else()
  add_test(NAME nccl_gpu_test
           COMMAND sh -c "echo 'SKIPPED: NCCL not found (pip install nvidia-nccl-cu13)'; exit 77")
  set_tests_properties(nccl_gpu_test PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
endif()

# The process group: one-rank groups in the test process, and, where the
# machine has several GPUs, N processes of tests/distributed_worker.cu (one
# per GPU) started by the test. The worker is built everywhere, CI
# included: it calls every collective of the process group on float32,
# int64 and float64, point to point between ranks among them, which a
# one-rank group (tests/device_paths/distributed.cu) can only instantiate.
if(CUPP_HAVE_NCCL)
  add_executable(distributed_worker distributed_worker.cu)
  target_link_libraries(distributed_worker PRIVATE cupp::nccl cupp_warnings)
  set_target_properties(distributed_worker PROPERTIES CUDA_ARCHITECTURES "${CUPP_GPU_TEST_ARCHITECTURES}")
  cupp_add_test(distributed_gpu_test gpu distributed_test.cu)
  target_link_libraries(distributed_gpu_test PRIVATE cupp::nccl)
  target_compile_definitions(distributed_gpu_test
                             PRIVATE CUPP_DISTRIBUTED_WORKER="$<TARGET_FILE:distributed_worker>")
  add_dependencies(distributed_gpu_test distributed_worker)
else()
  add_test(NAME distributed_gpu_test
           COMMAND sh -c "echo 'SKIPPED: NCCL not found (pip install nvidia-nccl-cu13)'; exit 77")
  set_tests_properties(distributed_gpu_test PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
endif()

# MPI as the launcher and bootstrap (cupp::mpi, where MPI is found): the
# worker under mpirun, with one rank and with one rank per GPU. The worker
# is built everywhere MPI is found: it is what compiles
# <cupp/distributed/mpi.hpp> (init_process_group_mpi,
# nccl_communicator_from_mpi), which tests/device_paths does not link.
if(CUPP_HAVE_MPI)
  add_executable(distributed_mpi_worker distributed_mpi_worker.cu)
  target_link_libraries(distributed_mpi_worker PRIVATE cupp::mpi cupp_warnings)
  set_target_properties(distributed_mpi_worker PROPERTIES CUDA_ARCHITECTURES "${CUPP_GPU_TEST_ARCHITECTURES}")
  cupp_add_test(distributed_mpi_gpu_test gpu distributed_mpi_test.cu)
  target_compile_definitions(
    distributed_mpi_gpu_test PRIVATE CUPP_MPIEXEC="${MPIEXEC_EXECUTABLE}"
                                     CUPP_MPI_WORKER="$<TARGET_FILE:distributed_mpi_worker>")
  add_dependencies(distributed_mpi_gpu_test distributed_mpi_worker)
else()
  add_test(NAME distributed_mpi_gpu_test
           COMMAND sh -c "echo 'SKIPPED: MPI or NCCL not found (apt install libopenmpi-dev)'; exit 77")
  set_tests_properties(distributed_mpi_gpu_test PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
endif()
