// The run-time kernels' compiler and cache (detail/kernels/), which need no
// GPU: NVRTC compiles for an architecture given by the test. Hits and misses
// in memory and on disk, every input of the key, compile errors with their
// log and source lines (and nothing cached), corrupted and truncated cache
// files, two processes compiling the same kernel at once, the size limit,
// CUPP_CACHE_IN_MEMORY, and when NVRTC's --minimal is used.
#include <cupp/kernels.hpp>

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace dk = cupp::detail::kernels;
using dk::cache_source;

namespace {

// A fresh cache directory for one test, set as CUPP_CACHE_DIR; the memory
// level is cleared so that each test starts cold.
struct fresh_cache {
  fs::path dir;
  fresh_cache() {
    std::string pattern = (fs::temp_directory_path() / "cupp-kernels-test-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    ::setenv("CUPP_CACHE_DIR", dir.c_str(), 1);
    ::unsetenv("CUPP_CACHE_IN_MEMORY");
    ::unsetenv("CUPP_CACHE_SIZE_LIMIT");
    dk::kernel_cache::instance().clear_memory();
  }
  ~fresh_cache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
    ::unsetenv("CUPP_CACHE_DIR");
    ::unsetenv("CUPP_CACHE_SIZE_LIMIT");
    ::unsetenv("CUPP_CACHE_IN_MEMORY");
  }
  // The files in the directory: cache entries and leftovers alike.
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    for (const auto& f : fs::directory_iterator(dir)) out.push_back(f.path());
    return out;
  }
};

const std::string add_source = R"(
extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
)";

cache_source get(const std::string& source, std::vector<std::string> options = {},
                 std::vector<std::string> names = {}, int arch = 90) {
  return dk::kernel_cache::instance().get(source, "test.cu", options, names, arch).source;
}

bool is_cubin(const std::string& image) {
  return image.size() > 4 && image.compare(0, 4,
                                           "\x7f"
                                           "ELF") == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernels_cache)

BOOST_AUTO_TEST_CASE(memory_then_disk) {
  fresh_cache c;
  auto r = dk::kernel_cache::instance().get(add_source, "add.cu", {}, {}, 90);
  BOOST_TEST((r.source == cache_source::compiled));
  BOOST_TEST(is_cubin(r.code->image));
  BOOST_TEST(!r.code->ptx);
  BOOST_TEST(c.files().size() == 1u);
  BOOST_TEST((get(add_source) == cache_source::memory));
  dk::kernel_cache::instance().clear_memory();
  const auto d = dk::kernel_cache::instance().get(add_source, "add.cu", {}, {}, 90);
  BOOST_TEST((d.source == cache_source::disk));
  BOOST_TEST(d.code->image == r.code->image);
  BOOST_TEST(c.files().size() == 1u);
}

// Each input of the key makes a different entry.
BOOST_AUTO_TEST_CASE(key_inputs) {
  fresh_cache c;
  BOOST_TEST((get(add_source) == cache_source::compiled));
  BOOST_TEST((get(add_source + " ") == cache_source::compiled));
  BOOST_TEST((get(add_source, {"-DX=1"}) == cache_source::compiled));
  BOOST_TEST((get(add_source, {"-DX=2"}) == cache_source::compiled));
  BOOST_TEST((get(add_source, {}, {}, 80) == cache_source::compiled));
  BOOST_TEST((get(add_source, {"-DX=1"}) == cache_source::memory));
  // Options split differently are different keys (no ambiguity by joining).
  BOOST_TEST(dk::cache_key("s", {"-Da", "b"}, {}, 90) != dk::cache_key("s", {"-Dab"}, {}, 90));
  BOOST_TEST(dk::cache_key("s", {"a"}, {"b"}, 90) != dk::cache_key("s", {"a", "b"}, {}, 90));
  BOOST_TEST(c.files().size() == 5u);
}

BOOST_AUTO_TEST_CASE(name_expressions) {
  fresh_cache c;
  const std::string src = R"(
template <class T> __global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
})";
  const auto r =
      dk::kernel_cache::instance().get(src, "scale.cu", {}, {"scale<float>", "scale<double>"}, 90);
  BOOST_TEST_REQUIRE(r.code->lowered.size() == 2u);
  BOOST_TEST(r.code->lowered[0].first == "scale<float>");
  BOOST_TEST(r.code->lowered[0].second.rfind("_Z", 0) == 0u);
  BOOST_TEST(r.code->lowered[0].second != r.code->lowered[1].second);
  dk::kernel_cache::instance().clear_memory();
  const auto d =
      dk::kernel_cache::instance().get(src, "scale.cu", {}, {"scale<float>", "scale<double>"}, 90);
  BOOST_TEST((d.source == cache_source::disk));
  BOOST_TEST((d.code->lowered == r.code->lowered));
}

// A compile error: NVRTC's log and the source line it points at, and
// nothing cached.
BOOST_AUTO_TEST_CASE(compile_error_log) {
  fresh_cache c;
  const std::string bad =
      "extern \"C\" __global__ void f(int* x) {\n  x[0] = undeclared_name;\n}\n";
  try {
    (void)dk::kernel_cache::instance().get(bad, "bad.cu", {}, {}, 90);
    BOOST_ERROR("no compile_error");
  } catch (const cupp::compile_error& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("undeclared_name") != std::string::npos);
    BOOST_TEST(what.find("bad.cu(2)") != std::string::npos);
    BOOST_TEST(what.find("  2 |   x[0] = undeclared_name;") != std::string::npos);
    BOOST_TEST(e.log().find("error") != std::string::npos);
  }
  BOOST_TEST(c.files().empty());
  // An option NVRTC does not know is the user's error too.
  BOOST_CHECK_THROW((void)get(add_source, {"--no-such-option"}), cupp::compile_error);
  BOOST_TEST(c.files().empty());
}

// A file that is not a whole entry for its key is a miss, and is replaced.
BOOST_AUTO_TEST_CASE(corrupted_files) {
  fresh_cache c;
  BOOST_TEST((get(add_source) == cache_source::compiled));
  BOOST_TEST_REQUIRE(c.files().size() == 1u);
  const fs::path file = c.files()[0];
  const std::string good = dk::read_file_bytes(file);
  auto rewrite = [&](const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    dk::kernel_cache::instance().clear_memory();
  };
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;
  for (const std::string& bad :
       {std::string(), std::string("garbage"), good.substr(0, good.size() / 2),
        good.substr(0, good.size() - 1), flipped}) {
    rewrite(bad);
    BOOST_TEST((get(add_source) == cache_source::compiled));
    BOOST_TEST(dk::read_file_bytes(file) == good);
  }
  // Another key's entry under this key's name (a hash collision) is a miss.
  const auto other = dk::kernel_cache::instance().get(add_source, "t.cu", {"-DOTHER"}, {}, 90);
  rewrite(dk::serialize(dk::cache_key(add_source, {"-DOTHER"}, {}, 90), *other.code));
  BOOST_TEST((get(add_source) == cache_source::compiled));
  dk::kernel_cache::instance().clear_memory();
  BOOST_TEST((get(add_source) == cache_source::disk));
}

// Two processes compile the same new kernel at once: both succeed, one
// whole entry remains and no temporary file.
BOOST_AUTO_TEST_CASE(concurrent_processes) {
  fresh_cache c;
  const std::string src = add_source + "// " + c.dir.string() + "\n";
  std::vector<pid_t> children;
  for (int i = 0; i < 2; ++i) {
    const pid_t pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if (pid == 0) {
      int code = 0;
      try {
        dk::kernel_cache::instance().clear_memory();
        const auto r = dk::kernel_cache::instance().get(src, "race.cu", {}, {}, 90);
        code = is_cubin(r.code->image) ? 0 : 2;
      } catch (...) {
        code = 3;
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    BOOST_TEST(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
  }
  const auto files = c.files();
  BOOST_TEST(files.size() == 1u);
  for (const fs::path& f : files) BOOST_TEST(f.extension() == ".cubin");
  BOOST_TEST((get(src) == cache_source::disk));
}

// Past CUPP_CACHE_SIZE_LIMIT the least recently used entries go.
BOOST_AUTO_TEST_CASE(size_limit) {
  fresh_cache c;
  BOOST_TEST((get(add_source, {"-DK=0"}) == cache_source::compiled));
  const auto one = fs::file_size(c.files()[0]);
  ::setenv("CUPP_CACHE_SIZE_LIMIT", std::to_string(one * 5 / 2).c_str(), 1);
  for (int k = 1; k < 5; ++k)
    BOOST_TEST((get(add_source, {"-DK=" + std::to_string(k)}) == cache_source::compiled));
  std::uintmax_t total = 0;
  for (const fs::path& f : c.files()) total += fs::file_size(f);
  BOOST_TEST(total <= one * 5 / 2);
  BOOST_TEST(c.files().size() >= 1u);
  // The newest entry stays.
  dk::kernel_cache::instance().clear_memory();
  BOOST_TEST((get(add_source, {"-DK=4"}) == cache_source::disk));
}

BOOST_AUTO_TEST_CASE(in_memory_only) {
  fresh_cache c;
  ::setenv("CUPP_CACHE_IN_MEMORY", "1", 1);
  BOOST_TEST((get(add_source) == cache_source::compiled));
  BOOST_TEST((get(add_source) == cache_source::memory));
  BOOST_TEST(c.files().empty());
}

// A device newer than NVRTC knows gets PTX for NVRTC's newest architecture.
BOOST_AUTO_TEST_CASE(newer_device_gets_ptx) {
  fresh_cache c;
  const int newest = dk::nvrtc_newest_arch();
  const auto r = dk::kernel_cache::instance().get(add_source, "add.cu", {}, {}, newest + 10);
  BOOST_TEST(r.code->ptx);
  BOOST_TEST(r.code->image.find(".entry add") != std::string::npos);
}

// NVRTC's --minimal: added only where the source and options name nothing
// it leaves out; the same cubin as without it; a source that fails under it
// (here a runtime type spelled by token pasting, which the test of the text
// cannot see) compiles without it.
BOOST_AUTO_TEST_CASE(minimal_header) {
  const int v = dk::nvrtc_version();
  if (v < 12040) return;  // no --minimal before NVRTC 12.4
  BOOST_TEST(dk::minimal_header_applies(add_source, {}, v));
  BOOST_TEST(!dk::minimal_header_applies(add_source, {}, 12030));
  const std::string tex =
      "extern \"C\" __global__ void f(cudaTextureObject_t t, float* x) {\n"
      "  x[0] = tex1Dfetch<float>(t, 0);\n}\n";
  BOOST_TEST(!dk::minimal_header_applies(tex, {}, v));
  BOOST_TEST(!dk::minimal_header_applies("#include <x.h>\n" + add_source, {}, v));
  BOOST_TEST(!dk::minimal_header_applies(add_source, {"-include", "x.h"}, v));
  BOOST_TEST(!dk::minimal_header_applies(add_source, {"-rdc=true"}, v));
  BOOST_TEST(!dk::minimal_header_applies(add_source, {"-DT=CUDA_R_32F"}, v));
  BOOST_TEST(dk::minimal_header_applies(add_source, {"-DK=1", "--std=c++17"}, v));
  ::setenv("CUPP_NVRTC_MINIMAL", "0", 1);
  BOOST_TEST(!dk::minimal_header_applies(add_source, {}, v));
  ::unsetenv("CUPP_NVRTC_MINIMAL");

  const auto with = dk::nvrtc_compile_as(add_source, "m.cu", {}, {}, 90, true);
  const auto without = dk::nvrtc_compile_as(add_source, "m.cu", {}, {}, 90, false);
  BOOST_TEST((with.image == without.image));
  BOOST_CHECK_THROW((void)dk::nvrtc_compile_as(tex, "t.cu", {}, {}, 90, true), cupp::compile_error);
  BOOST_TEST(is_cubin(dk::nvrtc_compile(tex, "t.cu", {}, {}, 90).image));
  const std::string pasted =
      "#define CAT(a, b) a##b\n"
      "extern \"C\" __global__ void f(int* x) {\n"
      "  CAT(cu, daError_t) e = CAT(cu, daSuccess);\n  x[0] = static_cast<int>(e);\n}\n";
  BOOST_TEST(dk::minimal_header_applies(pasted, {}, v));
  BOOST_TEST(is_cubin(dk::nvrtc_compile(pasted, "p.cu", {}, {}, 90).image));
}

BOOST_AUTO_TEST_SUITE_END()
