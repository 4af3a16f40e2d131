// Memory hooks (cupy.cuda.MemoryHook): objects told of every allocation and
// free that a thread makes through cupp's allocators.
//
//   cupp::cuda::debug_print_hook printer(std::cerr);
//   {
//     cupp::cuda::memory_hook_scope on(printer);   // or: auto on = printer.activate();
//     cupp::ndarray<float> z = x * y + w;          // one line per event
//   }
//
// Events, each with a `preprocess` call before and a `postprocess` call after:
//   alloc   memory taken from CUDA by a pool (cudaMalloc of a block or segment)
//   malloc  a pool's allocation handed to the caller (requested and rounded size)
//   free    an allocation given back to its pool
// Hooks are installed per thread, stack like scopes and are called in the
// order they were installed. A free is reported to the hooks of the thread
// that lets go of the last handle to the memory.
//
// This header makes no CUDA call: the pools' bookkeeping
// (caching_allocator.hpp) includes it and is tested on the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <ostream>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include <cupp/config.hpp>

namespace cupp::cuda {

class memory_hook_scope;

// Override the callbacks of interest; the others do nothing. A callback runs
// while the pool holds its lock (alloc) or inside a destructor (free): it
// must not allocate through the same pool and must not throw.
class memory_hook {
 public:
  memory_hook() = default;
  memory_hook(const memory_hook&) = delete;
  memory_hook& operator=(const memory_hook&) = delete;
  virtual ~memory_hook() = default;

  // `mem_size` bytes requested from CUDA; `mem_ptr` is null when CUDA had
  // none (the pool then empties its cache and tries again).
  virtual void alloc_preprocess(int /*device*/, std::size_t /*mem_size*/) {}
  virtual void alloc_postprocess(int /*device*/, std::size_t /*mem_size*/, void* /*mem_ptr*/) {}
  // `size` bytes asked for, `mem_size` after rounding; `mem_ptr` is null
  // when the allocation failed (an out_of_memory_error follows).
  virtual void malloc_preprocess(int /*device*/, std::size_t /*size*/, std::size_t /*mem_size*/) {}
  virtual void malloc_postprocess(int /*device*/, std::size_t /*size*/, std::size_t /*mem_size*/,
                                  void* /*mem_ptr*/) {}
  virtual void free_preprocess(int /*device*/, void* /*mem_ptr*/, std::size_t /*mem_size*/) {}
  virtual void free_postprocess(int /*device*/, void* /*mem_ptr*/, std::size_t /*mem_size*/) {}

  // Installs this hook on the calling thread until the returned scope ends
  // (the C++ form of `with hook:`).
  [[nodiscard]] memory_hook_scope activate();
};

namespace detail {

struct hook_link {
  memory_hook* hook;
  const hook_link* outer;
};

// The innermost hook installed on this thread, or null: the one
// thread-local every allocation reads, so that no hook costs one load.
inline const hook_link*& hook_stack() noexcept CUPP_HOST_BODY({
  thread_local const hook_link* top = nullptr;
  return top;
});

// Calls f on each hook of the stack, outermost (first installed) first.
template <class F>
void for_each_hook(const hook_link* link, F&& f) {
  if (!link) return;
  for_each_hook(link->outer, f);
  f(*link->hook);
}

// The allocation `allocate()` (returning a pointer) between the thread's
// malloc callbacks; the post callback sees null when it throws.
template <class F>
void* report_malloc(int device, std::size_t size, std::size_t mem_size, F&& allocate) {
  const hook_link* hooks = hook_stack();
  if (!hooks) return allocate();
  for_each_hook(hooks, [&](memory_hook& h) { h.malloc_preprocess(device, size, mem_size); });
  void* p = nullptr;
  try {
    p = allocate();
  } catch (...) {
    for_each_hook(hooks,
                  [&](memory_hook& h) { h.malloc_postprocess(device, size, mem_size, nullptr); });
    throw;
  }
  for_each_hook(hooks, [&](memory_hook& h) { h.malloc_postprocess(device, size, mem_size, p); });
  return p;
}

// The same for memory taken from CUDA.
template <class F>
void* report_alloc(int device, std::size_t mem_size, F&& allocate) {
  const hook_link* hooks = hook_stack();
  if (!hooks) return allocate();
  for_each_hook(hooks, [&](memory_hook& h) { h.alloc_preprocess(device, mem_size); });
  void* p = nullptr;
  try {
    p = allocate();
  } catch (...) {
    for_each_hook(hooks, [&](memory_hook& h) { h.alloc_postprocess(device, mem_size, nullptr); });
    throw;
  }
  for_each_hook(hooks, [&](memory_hook& h) { h.alloc_postprocess(device, mem_size, p); });
  return p;
}

template <class F>
void report_free(int device, void* mem_ptr, std::size_t mem_size, F&& release) {
  const hook_link* hooks = hook_stack();
  if (!hooks) {
    release();
    return;
  }
  for_each_hook(hooks, [&](memory_hook& h) { h.free_preprocess(device, mem_ptr, mem_size); });
  release();
  for_each_hook(hooks, [&](memory_hook& h) { h.free_postprocess(device, mem_ptr, mem_size); });
}

}  // namespace detail

// Installs `hook` on the calling thread for the scope's lifetime. Scopes
// nest and must end in reverse order of creation, on the thread that made
// them. The hook must outlive the scope.
class memory_hook_scope {
 public:
  explicit memory_hook_scope(memory_hook& hook) noexcept : link_{&hook, detail::hook_stack()} {
    detail::hook_stack() = &link_;
  }
  memory_hook_scope(const memory_hook_scope&) = delete;
  memory_hook_scope& operator=(const memory_hook_scope&) = delete;
  ~memory_hook_scope() { detail::hook_stack() = link_.outer; }

 private:
  detail::hook_link link_;
};

inline memory_hook_scope memory_hook::activate() {
  return memory_hook_scope(*this);
}

// The hooks installed on the calling thread, first installed first
// (cupy.cuda.memory_hook.get_memory_hooks).
inline std::vector<memory_hook*> get_memory_hooks() CUPP_HOST_BODY({
  std::vector<memory_hook*> out;
  detail::for_each_hook(detail::hook_stack(), [&](memory_hook& h) { out.push_back(&h); });
  return out;
});

// ---------------------------------------------------------------------------
// Allocation sites: C++ has no traceback to walk, so the places worth
// attributing allocations to are marked by the program. An alloc_site
// object records where it was declared (std::source_location, captured by
// the defaulted argument); until it goes out of scope, allocations on its
// thread belong to it. Sites nest; the innermost one is current.
//
//   void step() {
//     cupp::cuda::alloc_site here;              // this line
//     auto z = x * y + w;
//   }
//   CUPP_ALLOC_SITE();                          // the same, as a statement
//   cupp::cuda::alloc_site s("update");         // a label beside the line

class alloc_site {
 public:
  explicit alloc_site(std::source_location where = std::source_location::current()) noexcept
      : alloc_site(nullptr, where) {}
  // `label` must outlive the site (a string literal, typically).
  explicit alloc_site(const char* label,
                      std::source_location where = std::source_location::current()) noexcept
      : where_(where), label_(label), outer_(current()) {
    current() = this;
  }
  alloc_site(const alloc_site&) = delete;
  alloc_site& operator=(const alloc_site&) = delete;
  ~alloc_site() { current() = outer_; }

  const std::source_location& where() const noexcept { return where_; }
  const char* label() const noexcept { return label_; }
  const alloc_site* outer() const noexcept { return outer_; }

  // "label at file:line (function)", or "file:line (function)".
  std::string name() const CUPP_HOST_BODY({
    std::string s = label_ ? std::string(label_) + " at " : std::string();
    return s + where_.file_name() + ':' + std::to_string(where_.line()) + " (" +
           where_.function_name() + ')';
  });

  // The calling thread's innermost site, or null.
  static const alloc_site*& current() noexcept CUPP_HOST_BODY({
    thread_local const alloc_site* top = nullptr;
    return top;
  });

 private:
  std::source_location where_;
  const char* label_;
  const alloc_site* outer_;
};

#define CUPP_ALLOC_SITE_CAT2(a, b) a##b
#define CUPP_ALLOC_SITE_CAT(a, b) CUPP_ALLOC_SITE_CAT2(a, b)
// Marks the rest of the enclosing block as an allocation site.
#define CUPP_ALLOC_SITE() \
  ::cupp::cuda::alloc_site CUPP_ALLOC_SITE_CAT(cupp_alloc_site_, __LINE__) {}

// ---------------------------------------------------------------------------
// Hooks that come with cupp. Each may be installed on several threads at
// once; its own state is locked.

// One line per completed event, as cupy.cuda.memory_hooks.DebugPrintHook
// prints them:
//   {"hook":"malloc","device_id":0,"size":4000,"mem_size":4096,"mem_ptr":"0x7f..."}
class debug_print_hook : public memory_hook {
 public:
  explicit debug_print_hook(std::ostream& os, bool flush = true) : os_(&os), flush_(flush) {}

  void alloc_postprocess(int device, std::size_t mem_size, void* mem_ptr) override CUPP_HOST_BODY({
    line("{\"hook\":\"alloc\",\"device_id\":" + std::to_string(device) +
         ",\"mem_size\":" + std::to_string(mem_size) + ",\"mem_ptr\":\"" + hex(mem_ptr) + "\"}");
  });
  void malloc_postprocess(int device, std::size_t size, std::size_t mem_size,
                          void* mem_ptr) override CUPP_HOST_BODY({
    line("{\"hook\":\"malloc\",\"device_id\":" + std::to_string(device) +
         ",\"size\":" + std::to_string(size) + ",\"mem_size\":" + std::to_string(mem_size) +
         ",\"mem_ptr\":\"" + hex(mem_ptr) + "\"}");
  });
  void free_postprocess(int device, void* mem_ptr, std::size_t mem_size) override CUPP_HOST_BODY({
    line("{\"hook\":\"free\",\"device_id\":" + std::to_string(device) +
         ",\"mem_size\":" + std::to_string(mem_size) + ",\"mem_ptr\":\"" + hex(mem_ptr) + "\"}");
  });

 private:
  static std::string hex(const void* p) CUPP_HOST_BODY({
    char buf[2 + 2 * sizeof(void*) + 1];
    std::snprintf(buf, sizeof buf, "0x%llx",
                  static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
    return buf;
  });
  void line(const std::string& s) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    *os_ << s << '\n';
    if (flush_) os_->flush();
  });

  std::ostream* os_;
  bool flush_;
  std::mutex mutex_;
};

// Allocations per alloc_site (cupyx.profiler's LineProfileHook, with sites
// in place of the frames of a traceback). Counts successful mallocs and the
// memory the pool had to take from CUDA for them; frees are not attributed
// (they happen wherever the last handle goes). Allocations outside any site
// fall under "(no alloc_site)".
class line_profile_hook : public memory_hook {
 public:
  struct site_stats {
    std::string site;
    std::size_t n_malloc = 0;
    std::size_t requested_bytes = 0;  // sizes asked for
    std::size_t used_bytes = 0;       // after the pool's rounding
    std::size_t n_alloc = 0;
    std::size_t acquired_bytes = 0;  // taken from CUDA
  };

  void alloc_postprocess(int, std::size_t mem_size, void* mem_ptr) override CUPP_HOST_BODY({
    if (!mem_ptr) return;
    std::lock_guard lock(mutex_);
    site_stats& s = at(alloc_site::current());
    ++s.n_alloc;
    s.acquired_bytes += mem_size;
  });
  void malloc_postprocess(int, std::size_t size, std::size_t mem_size, void* mem_ptr) override {
    if (!mem_ptr) return;
    std::lock_guard lock(mutex_);
    site_stats& s = at(alloc_site::current());
    ++s.n_malloc;
    s.requested_bytes += size;
    s.used_bytes += mem_size;
  }

  // Every site seen, most bytes used first (ties by name).
  std::vector<site_stats> report() const CUPP_HOST_BODY({
    std::vector<site_stats> out;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [name, s] : sites_) out.push_back(s);
    }
    std::stable_sort(out.begin(), out.end(), [](const site_stats& a, const site_stats& b) {
      return a.used_bytes > b.used_bytes;
    });
    return out;
  });

  // A table: used bytes, mallocs, bytes taken from CUDA, site; then totals.
  void print_report(std::ostream& os) const CUPP_HOST_BODY({
    const auto rows = report();
    site_stats total;
    total.site = "total";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%16s %8s %16s  %s\n", "used bytes", "mallocs", "acquired bytes",
                  "site");
    os << buf;
    auto print = [&](const site_stats& s) {
      std::snprintf(buf, sizeof buf, "%16zu %8zu %16zu  ", s.used_bytes, s.n_malloc,
                    s.acquired_bytes);
      os << buf << s.site << '\n';
    };
    for (const auto& s : rows) {
      print(s);
      total.n_malloc += s.n_malloc;
      total.used_bytes += s.used_bytes;
      total.acquired_bytes += s.acquired_bytes;
    }
    print(total);
  });

  void clear() CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    sites_.clear();
  });

 private:
  site_stats& at(const alloc_site* site) CUPP_HOST_BODY({
    std::string name = site ? site->name() : std::string("(no alloc_site)");
    auto it = sites_.find(name);
    if (it == sites_.end()) {
      it = sites_.emplace(name, site_stats{}).first;
      it->second.site = std::move(name);
    }
    return it->second;
  });

  mutable std::mutex mutex_;
  std::map<std::string, site_stats> sites_;  // ordered: ties in the report by name
};

}  // namespace cupp::cuda
