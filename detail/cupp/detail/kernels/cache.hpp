// The kernel cache: compiled code by its key (source, options, name
// expressions, architecture, NVRTC version), in memory for the process and
// on disk across processes. The disk cache lives in CUPP_CACHE_DIR (default
// $XDG_CACHE_HOME/cupp/kernels or ~/.cache/cupp/kernels), one file a key,
// written to a temporary file and renamed into place, so that processes
// compiling the same kernel at once never see half a file. Each file
// carries its whole key and a checksum: a file that does not match (another
// key with the same hash, a truncated or corrupted file) is a miss and is
// rewritten. The directory is kept under CUPP_CACHE_SIZE_LIMIT bytes
// (default 1 GiB) by removing the least recently used files.
// CUPP_CACHE_IN_MEMORY=1 keeps the disk out of it.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/detail/kernels/nvrtc.hpp>

namespace cupp::detail::kernels {

// 64-bit FNV-1a with a seed: two seeds make the file name. Not a
// cryptographic hash: the key stored in the file decides a hit.
inline std::uint64_t fnv1a(std::string_view s, std::uint64_t seed) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (const unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// The files' checksum: eight bytes a step (FNV-1a takes one, and a cache
// hit sums the whole file), each word mixed in by a multiply and a rotate,
// the tail bytes one by one. A guard against torn and damaged files, not
// against someone who means to fool it.
inline std::uint64_t checksum64(std::string_view s) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ (w * 0xbf58476d1ce4e5b9ull)) * 0x94d049bb133111ebull;
    h = (h << 29) | (h >> 35);
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ull;
  return h ^ (h >> 31);
}

inline std::string key_file_name(const std::string& key) {
  static const char digits[] = "0123456789abcdef";
  std::string name;
  for (const std::uint64_t h : {fnv1a(key, 0), fnv1a(key, 0x9e3779b97f4a7c15ull)})
    for (int i = 60; i >= 0; i -= 4) name += digits[(h >> i) & 0xf];
  return name + ".cubin";
}

// The key: every input that changes the compiled code, length-prefixed so
// that no two different inputs give the same string.
inline std::string cache_key(const std::string& source, const std::vector<std::string>& options,
                             const std::vector<std::string>& name_expressions, int arch) {
  std::string key = "cupp-kernel 1 nvrtc " + std::to_string(nvrtc_version()) + " arch " +
                    std::to_string(arch) + '\n';
  auto add = [&key](const std::string& s) {
    key += std::to_string(s.size());
    key += ':';
    key += s;
  };
  key += "options " + std::to_string(options.size()) + '\n';
  for (const std::string& o : options) add(o);
  key += "\nnames " + std::to_string(name_expressions.size()) + '\n';
  for (const std::string& e : name_expressions) add(e);
  key += "\nsource\n";
  add(source);
  return key;
}

// --- the file format ----------------------------------------------------------
// "CUPPKC2\n", then length-prefixed (8 bytes, little-endian as the host)
// strings: the key, the ptx flag, the number of lowered names and each pair,
// the image; then checksum64 of everything before it. (Version 1 ended with
// the FNV-1a instead; its files are misses, and are rewritten.)

inline void put_u64(std::string& out, std::uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
inline void put_string(std::string& out, const std::string& s) {
  put_u64(out, s.size());
  out += s;
}

inline std::string serialize(const std::string& key, const compiled_code& c) {
  std::string out = "CUPPKC2\n";
  put_string(out, key);
  put_u64(out, c.ptx ? 1 : 0);
  put_u64(out, c.lowered.size());
  for (const auto& [expr, name] : c.lowered) {
    put_string(out, expr);
    put_string(out, name);
  }
  put_string(out, c.image);
  put_u64(out, checksum64(out));
  return out;
}

// The code in `bytes` when it is a whole file for `key`.
inline std::unique_ptr<compiled_code> deserialize(const std::string& bytes,
                                                  const std::string& key) {
  if (bytes.size() < 16 || bytes.compare(0, 8, "CUPPKC2\n") != 0) return nullptr;
  std::uint64_t sum = 0;
  std::memcpy(&sum, bytes.data() + bytes.size() - 8, 8);
  const std::string_view body(bytes.data(), bytes.size() - 8);
  if (checksum64(body) != sum) return nullptr;
  std::size_t at = 8;
  auto get_u64 = [&](std::uint64_t& v) {
    if (body.size() - at < 8) return false;
    std::memcpy(&v, body.data() + at, 8);
    at += 8;
    return true;
  };
  auto get_string = [&](std::string& s) {
    std::uint64_t n = 0;
    if (!get_u64(n) || body.size() - at < n) return false;
    s.assign(body.data() + at, n);
    at += n;
    return true;
  };
  std::string stored;
  auto c = std::make_unique<compiled_code>();
  std::uint64_t ptx = 0, names = 0;
  if (!get_string(stored) || stored != key || !get_u64(ptx) || !get_u64(names)) return nullptr;
  c->ptx = ptx != 0;
  for (std::uint64_t i = 0; i < names; ++i) {
    std::string expr, name;
    if (!get_string(expr) || !get_string(name)) return nullptr;
    c->lowered.emplace_back(std::move(expr), std::move(name));
  }
  if (!get_string(c->image) || at != body.size()) return nullptr;
  return c;
}

// --- the directory ------------------------------------------------------------

inline bool cache_in_memory_only() {
  const char* v = std::getenv("CUPP_CACHE_IN_MEMORY");
  return v && *v && std::string_view(v) != "0";
}

inline std::filesystem::path cache_dir() {
  if (const char* d = std::getenv("CUPP_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::filesystem::path(x) / "cupp" / "kernels";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::filesystem::path(h) / ".cache" / "cupp" / "kernels";
  return std::filesystem::temp_directory_path() / "cupp-kernels";
}

inline std::uintmax_t cache_size_limit() {
  if (const char* v = std::getenv("CUPP_CACHE_SIZE_LIMIT"); v && *v) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end && *end == '\0') return n;
  }
  return std::uintmax_t{1} << 30;
}

// A whole file in one read of the size fstat gives (a stream copying a
// character at a time took most of a disk hit's host time); empty where it
// cannot be read. `touch` also marks it used now, for the size limit's
// least-recently-used order, through the descriptor already open.
inline std::string read_file_bytes(const std::filesystem::path& p, bool touch = false) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string bytes;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < bytes.size()) {
      const ::ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
    if (touch) (void)::futimens(fd, nullptr);
  }
  ::close(fd);
  return bytes;
}

// Removes the least recently used cache files until the directory holds at
// most nine tenths of the limit (so that a full cache is not pruned at every
// write). Files that vanish meanwhile (another process pruning) are skipped.
inline void prune_cache(const std::filesystem::path& dir, std::uintmax_t limit) {
  namespace fs = std::filesystem;
  std::error_code ec;
  struct entry {
    fs::file_time_type time;
    std::uintmax_t size;
    fs::path path;
  };
  std::vector<entry> files;
  std::uintmax_t total = 0;
  for (const auto& f : fs::directory_iterator(dir, ec)) {
    if (f.path().extension() != ".cubin") continue;
    const auto size = f.file_size(ec);
    if (ec) continue;
    const auto time = f.last_write_time(ec);
    if (ec) continue;
    files.push_back({time, size, f.path()});
    total += size;
  }
  if (total <= limit) return;
  std::sort(files.begin(), files.end(),
            [](const entry& a, const entry& b) { return a.time < b.time; });
  for (const entry& f : files) {
    if (total <= limit / 10 * 9) break;
    if (fs::remove(f.path, ec)) total -= f.size;
  }
}

// Writes the file through a temporary name and a rename; failures leave the
// cache as it was (a cache that cannot be written is only slower).
inline void write_cache_file(const std::filesystem::path& dir, const std::string& file,
                             const std::string& bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  static std::atomic<unsigned> counter{0};
  const fs::path tmp =
      dir / (file + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++) + "." +
             std::to_string(std::random_device{}()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      out.close();
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, dir / file, ec);
  if (ec) fs::remove(tmp, ec);
  prune_cache(dir, cache_size_limit());
}

// --- the two levels -----------------------------------------------------------

// Where a compile's result came from (for the tests and the benchmarks).
enum class cache_source { memory, disk, compiled };

struct cache_result {
  std::shared_ptr<const compiled_code> code;
  cache_source source;
};

class kernel_cache {
 public:
  static kernel_cache& instance() {
    static kernel_cache c;
    return c;
  }

  // The code for (source, options, name expressions, arch): from memory,
  // from disk, or compiled (and stored in both).
  cache_result get(const std::string& source, const std::string& name,
                   const std::vector<std::string>& options,
                   const std::vector<std::string>& name_expressions, int arch) {
    const std::string key = cache_key(source, options, name_expressions, arch);
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = memory_.find(key); it != memory_.end())
        return {it->second, cache_source::memory};
    }
    const bool disk = !cache_in_memory_only();
    const std::filesystem::path dir = disk ? cache_dir() : std::filesystem::path();
    const std::string file = key_file_name(key);
    std::shared_ptr<const compiled_code> code;
    cache_source from = cache_source::disk;
    if (disk) {
      if (auto c = deserialize(read_file_bytes(dir / file, true), key)) code = std::move(c);
    }
    if (!code) {
      from = cache_source::compiled;
      auto c = std::make_shared<compiled_code>(
          nvrtc_compile(source, name, options, name_expressions, arch));
      if (disk) write_cache_file(dir, file, serialize(key, *c));
      code = std::move(c);
    }
    const std::lock_guard lock(mutex_);
    const auto [it, inserted] = memory_.emplace(key, code);
    return {it->second, from};
  }

  // Forgets the in-memory level (the tests' way to reach the disk).
  void clear_memory() {
    const std::lock_guard lock(mutex_);
    memory_.clear();
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const compiled_code>> memory_;
};

}  // namespace cupp::detail::kernels
