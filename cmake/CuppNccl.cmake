# cupp::nccl: what <cupp/nccl.hpp> and <cupp/distributed.hpp> link:
# NCCL's libnccl.so.2, found (in this order) under CUPP_NCCL_ROOT or
# $NCCL_ROOT, in the folder of the `nvidia.nccl` Python package (PyPI's
# nvidia-nccl-cu13 wheel: nvidia/nccl/{include,lib}, with no unversioned
# libnccl.so, so the versioned name is searched), then in the CUDA toolkit
# and the system's paths. A target of its own, so that a program without
# several GPUs links no NCCL and compiles none of its headers. Without NCCL
# CUPP_HAVE_NCCL is FALSE and cupp::nccl does not exist. With NCCL and MPI,
# cupp::mpi as well (CUPP_HAVE_MPI).
option(CUPP_WITH_NCCL "Look for NCCL and make cupp::nccl (and cupp::mpi) where it is found" ON)
if(NOT CUPP_WITH_NCCL)
  set(CUPP_HAVE_NCCL FALSE)
  set(CUPP_HAVE_MPI FALSE)
  message(STATUS "cupp::nccl: not looked for (CUPP_WITH_NCCL=OFF)")
elseif(NOT TARGET cupp::nccl)
  find_package(CUDAToolkit REQUIRED)
  set(cupp_nccl_hints)
  foreach(root IN ITEMS "${CUPP_NCCL_ROOT}" "$ENV{NCCL_ROOT}")
    if(root)
      list(APPEND cupp_nccl_hints "${root}")
    endif()
  endforeach()
  find_program(CUPP_PYTHON3 NAMES python3)
  if(CUPP_PYTHON3)
    execute_process(
      COMMAND "${CUPP_PYTHON3}" -c
              "import nvidia.nccl as m, os; print(list(m.__path__)[0])"
      OUTPUT_VARIABLE cupp_nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
      RESULT_VARIABLE cupp_nccl_wheel_rc)
    if(cupp_nccl_wheel_rc EQUAL 0 AND EXISTS "${cupp_nccl_wheel}")
      list(APPEND cupp_nccl_hints "${cupp_nccl_wheel}")
    endif()
  endif()
  list(APPEND cupp_nccl_hints "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_INCLUDE_DIRS}/..")
  find_path(CUPP_NCCL_INCLUDE_DIR nccl.h HINTS ${cupp_nccl_hints} PATH_SUFFIXES include)
  find_library(CUPP_NCCL_LIBRARY NAMES libnccl.so.2 nccl HINTS ${cupp_nccl_hints}
               PATH_SUFFIXES lib lib64)
  if(CUPP_NCCL_INCLUDE_DIR AND CUPP_NCCL_LIBRARY)
    set(CUPP_HAVE_NCCL TRUE)
    add_library(cupp_nccl INTERFACE IMPORTED GLOBAL)
    add_library(cupp::nccl ALIAS cupp_nccl)
    target_include_directories(cupp_nccl INTERFACE "${CUPP_NCCL_INCLUDE_DIR}")
    # pthread: the store's server thread and the communicators' watchdogs.
    find_package(Threads REQUIRED)
    target_link_libraries(cupp_nccl INTERFACE cupp::cupp "${CUPP_NCCL_LIBRARY}" Threads::Threads)
    target_compile_definitions(cupp_nccl INTERFACE CUPP_HAVE_NCCL=1)
    message(STATUS "cupp::nccl: ${CUPP_NCCL_LIBRARY}")
    # cupp::mpi: MPI as a way to start and bootstrap a process group
    # (<cupp/distributed/mpi.hpp>); OpenMPI from Debian's libopenmpi-dev.
    # Include directories and libraries only: MPI's own compile options
    # (-pthread ...) are for its C++ compiler, not for nvcc.
    find_package(MPI QUIET COMPONENTS CXX)
    if(MPI_CXX_FOUND)
      set(CUPP_HAVE_MPI TRUE)
      add_library(cupp_mpi INTERFACE IMPORTED GLOBAL)
      add_library(cupp::mpi ALIAS cupp_mpi)
      target_include_directories(cupp_mpi INTERFACE ${MPI_CXX_INCLUDE_DIRS})
      target_link_libraries(cupp_mpi INTERFACE cupp_nccl ${MPI_CXX_LIBRARIES})
      target_compile_definitions(cupp_mpi INTERFACE CUPP_HAVE_MPI=1)
      message(STATUS "cupp::mpi: ${MPI_CXX_LIBRARIES}")
    else()
      set(CUPP_HAVE_MPI FALSE)
      message(STATUS "cupp::mpi: MPI not found, so cupp::mpi does not exist (optional: "
                     "sudo apt install libopenmpi-dev openmpi-bin, then rerun CMake)")
    endif()
  else()
    set(CUPP_HAVE_NCCL FALSE)
    message(STATUS "cupp::nccl: NCCL not found, so cupp::nccl and the distributed tests are "
                   "not built (pip install nvidia-nccl-cu13, or set CUPP_NCCL_ROOT; then "
                   "rerun CMake)")
  endif()
endif()
