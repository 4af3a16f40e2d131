// Byte sources and sinks for .npy files: reads that are bounded by what the
// file holds, OS errors reported as Python reports them, and saves that
// replace the target only once the whole file is written.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::npy {

namespace fs = std::filesystem;

// "[Errno 2] No such file or directory: 'x.npy'", as Python's OSError reads.
[[noreturn]] inline void throw_os_error(std::error_code ec, const fs::path& path) CUPP_HOST_BODY({
  throw io_error("[Errno " + std::to_string(ec.value()) + "] " + ec.message() + ": '" +
                 path.string() + "'");
});
[[noreturn]] inline void throw_os_error(int err, const fs::path& path) {
  throw_os_error(std::error_code(err, std::generic_category()), path);
}

inline std::FILE* open_file(const fs::path& path, bool write) CUPP_HOST_BODY({
#ifdef _WIN32
  return ::_wfopen(path.c_str(), write ? L"wbx" : L"rb");
#else
  // "x": never take over a file that someone else created with our name.
  return std::fopen(path.c_str(), write ? "wbx" : "rb");
#endif
});

// Where the bytes of a .npy file come from.
class source {
 public:
  virtual ~source() = default;
  // Reads up to n bytes; fewer only at the end of the data. OS errors throw.
  virtual std::size_t read(void* dst, std::size_t n) = 0;
  // Bytes left, where the source can tell (regular files, seekable streams):
  // lets a reader reject a header that promises more than there is before
  // allocating for it.
  virtual std::optional<std::uint64_t> remaining() const = 0;
  // " (file 'x.npy')" for messages; empty for streams.
  virtual std::string where() const = 0;
};

class file_source final : public source {
 public:
  explicit file_source(const fs::path& path) : path_(path) {
    std::error_code ec;
    // fopen opens a directory for reading on POSIX; reading it then fails.
    if (fs::is_directory(path, ec)) throw_os_error(EISDIR, path);
    f_ = open_file(path, false);
    if (!f_) throw_os_error(errno, path);
    if (fs::is_regular_file(path, ec)) {
      const auto size = fs::file_size(path, ec);
      if (!ec) size_ = size;
    }
  }
  ~file_source() override {
    if (f_) std::fclose(f_);
  }
  file_source(const file_source&) = delete;
  file_source& operator=(const file_source&) = delete;

  std::size_t read(void* dst, std::size_t n) override CUPP_HOST_BODY({
    const std::size_t got = n ? std::fread(dst, 1, n, f_) : 0;
    if (got < n && std::ferror(f_)) throw_os_error(errno, path_);
    pos_ += got;
    return got;
  });
  std::optional<std::uint64_t> remaining() const override CUPP_HOST_BODY({
    if (!size_) return std::nullopt;
    return *size_ > pos_ ? *size_ - pos_ : 0;
  });
  std::string where() const override { return " (file '" + path_.string() + "')"; }

 private:
  fs::path path_;
  std::FILE* f_ = nullptr;
  std::optional<std::uint64_t> size_;
  std::uint64_t pos_ = 0;
};

// Reads from the stream's current position, so that arrays written one
// after another to one stream read back one after another.
class stream_source final : public source {
 public:
  explicit stream_source(std::istream& is) : is_(is) {
    if (!is_.good()) throw io_error("cannot read a .npy array: the input stream is not readable");
    const auto start = is_.tellg();
    if (start == std::istream::pos_type(-1)) {
      is_.clear();
      return;
    }
    is_.seekg(0, std::ios::end);
    const auto end = is_.tellg();
    if (is_ && end != std::istream::pos_type(-1) && end >= start)
      left_ = static_cast<std::uint64_t>(end - start);
    is_.clear();
    is_.seekg(start);
  }

  std::size_t read(void* dst, std::size_t n) override CUPP_HOST_BODY({
    std::size_t got = 0;
    while (got < n && is_) {
      // read() takes a signed count.
      const std::size_t chunk = std::min<std::size_t>(n - got, std::size_t{1} << 30);
      is_.read(static_cast<char*>(dst) + got, static_cast<std::streamsize>(chunk));
      got += static_cast<std::size_t>(is_.gcount());
    }
    if (is_.bad()) throw io_error("error while reading a .npy array from a stream");
    if (left_) *left_ -= std::min<std::uint64_t>(*left_, got);
    return got;
  });
  std::optional<std::uint64_t> remaining() const override { return left_; }
  std::string where() const override { return {}; }

 private:
  std::istream& is_;
  std::optional<std::uint64_t> left_;
};

// NumPy's message for data that ends early.
[[noreturn]] inline void throw_eof(const source& in, std::string_view what, std::uint64_t want,
                                   std::uint64_t got) {
  throw value_error("EOF: reading " + std::string(what) + ", expected " + std::to_string(want) +
                    " bytes got " + std::to_string(got) + in.where());
}

// Fails, before anything is read or allocated, when the source is known to
// hold fewer than n bytes.
inline void require_available(const source& in, std::string_view what, std::uint64_t n) {
  if (const auto left = in.remaining(); left && *left < n) throw_eof(in, what, n, *left);
}

inline void read_exact(source& in, void* dst, std::size_t n, std::string_view what) CUPP_HOST_BODY({
  require_available(in, what, n);
  const std::size_t got = in.read(dst, n);
  if (got != n) throw_eof(in, what, n, got);
});

// n bytes as a string, grown as the bytes arrive, so that a length field
// claiming gigabytes cannot make a stream of unknown size allocate them.
inline std::string read_string(source& in, std::size_t n, std::string_view what) CUPP_HOST_BODY({
  require_available(in, what, n);
  std::string s;
  constexpr std::size_t chunk = std::size_t{1} << 16;
  while (s.size() < n) {
    const std::size_t before = s.size();
    const std::size_t want = std::min(chunk, n - before);
    s.resize(before + want);
    const std::size_t got = in.read(s.data() + before, want);
    if (got != want) throw_eof(in, what, n, before + got);
  }
  return s;
});

// --- writing -----------------------------------------------------------------

// Writes the file under a temporary name in the target's directory and
// renames it over the target, so that readers never see a partial file and
// a failed save leaves any existing file as it was.
inline void write_file_atomically(const fs::path& path, std::string_view header, const void* data,
                                  std::size_t nbytes) {
  std::error_code ec;
  fs::path target = path;
  // Renaming over a symbolic link would replace the link; write its target.
  if (fs::is_symlink(target, ec)) {
    fs::path real = fs::weakly_canonical(target, ec);
    if (!ec) target = std::move(real);
  }
  // A directory is refused as Python's open() refuses it ("[Errno 21] Is a
  // directory"), not by the rename onto it (EISDIR, or EBUSY for "." and
  // mount points).
  if (!target.has_filename() || fs::is_directory(target, ec)) throw_os_error(EISDIR, path);

  static std::atomic<std::uint64_t> counter{0};
  std::FILE* f = nullptr;
  fs::path tmp;
  for (int attempt = 0;; ++attempt) {
    const std::uint64_t tag =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) *
            31 +
        counter.fetch_add(1);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(tag));
    tmp = target;
    tmp += std::string(".") + hex + ".tmp";
    f = open_file(tmp, true);
    if (f) break;
    const int err = errno;
    if (err != EEXIST || attempt == 16) throw_os_error(err, path);
  }

  // Closes and deletes the temporary file on every path but success.
  struct temp_file {
    std::FILE* f;
    const fs::path& name;
    bool keep = false;
    ~temp_file() {
      if (f) std::fclose(f);
      if (!keep) {
        std::error_code ignored;
        fs::remove(name, ignored);
      }
    }
  } guard{f, tmp};

  auto put = [&](const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, guard.f) != n) throw_os_error(errno, path);
  };
  put(header.data(), header.size());
  put(data, nbytes);
  if (std::fflush(guard.f) != 0) throw_os_error(errno, path);
  const int closed = std::fclose(guard.f);
  guard.f = nullptr;
  if (closed != 0) throw_os_error(errno, path);

  // Keep the permissions of the file being replaced.
  const auto st = fs::status(target, ec);
  if (!ec && fs::is_regular_file(st)) fs::permissions(tmp, st.permissions(), ec);

  fs::rename(tmp, target, ec);
  if (ec) throw_os_error(ec, path);
  guard.keep = true;
}

inline void write_stream(std::ostream& os, std::string_view header, const void* data,
                         std::size_t nbytes) {
  os.write(header.data(), static_cast<std::streamsize>(header.size()));
  const char* p = static_cast<const char*>(data);
  while (nbytes && os) {
    const std::size_t chunk = std::min<std::size_t>(nbytes, std::size_t{1} << 30);
    os.write(p, static_cast<std::streamsize>(chunk));
    p += chunk;
    nbytes -= chunk;
  }
  if (!os) throw io_error("error while writing a .npy array to a stream");
}

}  // namespace cupp::detail::npy
