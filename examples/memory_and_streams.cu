// Streams, events, memory pools and asynchronous transfers.
#include <cupp/cupp.hpp>

#include <iostream>

namespace cp = cupp;

int main() {
  if (!cp::cuda::is_available()) {
    std::cout << "No CUDA device found: this example needs a GPU.\n";
    return 0;
  }
  // `with cupy.cuda.Stream(non_blocking=True):` becomes a scope.
  cp::cuda::Stream stream(/*non_blocking=*/true);
  cp::cuda::Event start, stop;
  {
    auto scope = stream.scope();
    start.record();
    auto x = cp::zeros<double>({1 << 20}).eval();  // a fill kernel on `stream`
    auto h = cp::host::empty_pinned<double>({1 << 20});
    x.get_into(h, {.stream = stream, .blocking = false});  // returns at once
    stop.record();
    stream.synchronize();
    std::cout << "zeros + copy to pinned memory: " << cp::cuda::get_elapsed_time(start, stop)
              << " ms, first element " << h.at(0) << "\n";
  }

  // A memory limit, and the error past it.
  auto& pool = cp::cuda::get_default_memory_pool();
  pool.set_limit(std::size_t{64} << 20);
  try {
    auto too_big = cp::empty<float>({std::int64_t{1} << 25});  // 128 MiB
  } catch (const cp::out_of_memory_error& e) {
    std::cout << "as expected: " << e.what() << "\n";
  }
  pool.set_limit(0);

  // Another allocator for one scope: CUDA's stream-ordered pool.
  {
    cp::cuda::using_allocator scope(cp::cuda::malloc_async_allocator());
    auto y = cp::zeros<float>({1024}).eval();
    std::cout << "from cudaMallocAsync: " << y.item(0) << "\n";
  }
  return 0;
}
